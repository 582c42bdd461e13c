import { useMemo, useState, type ClipboardEvent, type FormEvent, type ReactNode } from 'react';
import { Plus, Ruler, Save, Trash2 } from 'lucide-react';
import type { Device, DeviceGeometry } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FieldMessages, fieldAria, focusFirstError, FormField, showSubmitError } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { formatNumber } from '@/lib/format';
import { useGeometry } from '../api/get-geometry';
import { useSaveGeometry } from '../api/save-geometry';
import { fieldOfGeometryError } from '../utils/geometry-errors';
import {
  GEOMETRY_FIELD_ORDER,
  geometryFormFrom,
  parsePastedPoints,
  validateGeometryForm,
  type GeometryField,
  type GeometryFieldErrors,
  type GeometryFormValues,
  type PointRow,
  type ShapeKind,
} from '../utils/geometry-form';
import { GeometryVersions } from './geometry-versions';
import { VolumePreview } from './volume-preview';

export const GEOMETRY_FORM_ID = 'geometry-form';
const fieldId = (field: GeometryField) => `${GEOMETRY_FORM_ID}-${field}`;

const SHAPES: Array<{ value: ShapeKind; label: string }> = [
  { value: 'none', label: 'Sin forma (solo nivel)' },
  { value: 'rectangular', label: 'Rectangular' },
  { value: 'vertical_cylinder', label: 'Cilindro vertical' },
  { value: 'horizontal_cylinder', label: 'Cilindro horizontal' },
  { value: 'table', label: 'Tabla de aforo' },
];

/**
 * 'Geometría y calibración' of a level sensor (docs/water.md): render it only for users who hold
 * manage_devices (the server refuses the others' PUT anyway).
 */
export function GeometryButton({ device }: { device: Device }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" className="justify-self-start" onClick={() => setOpen(true)}>
        <Ruler aria-hidden="true" />
        Geometría y calibración
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent data-testid="geometry-dialog" className="max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
          <DialogHeader>
            <DialogTitle>Geometría y calibración · {device.name}</DialogTitle>
            <DialogDescription>Cada cambio guarda una versión nueva; las lecturas se convierten con la versión vigente en su momento.</DialogDescription>
          </DialogHeader>
          {open ? <GeometryLoader device={device} onClose={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function maxLevelOf(device: Device): number {
  const max = (device.config as { maxLevel?: unknown }).maxLevel;
  return typeof max === 'number' && max > 0 ? max : 0;
}

function GeometryLoader({ device, onClose }: { device: Device; onClose: () => void }) {
  const query = useGeometry(device.id);
  if (query.isPending) return <Spinner />;
  if (query.isError) return <FormAlert message={query.error.message} />;
  return <GeometryForm device={device} stored={query.data} onClose={onClose} />;
}

function GeometryForm({ device, stored, onClose }: { device: Device; stored: DeviceGeometry; onClose: () => void }) {
  const maxLevelM = maxLevelOf(device);
  const mutation = useSaveGeometry();
  const [values, setValues] = useState<GeometryFormValues>(() => geometryFormFrom(stored));
  const [serverErrors, setServerErrors] = useState<GeometryFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  // Checked on every keystroke, with the same rules as the server: errors and preview stay live.
  const checked = useMemo(() => validateGeometryForm(values, maxLevelM), [values, maxLevelM]);
  const errors: GeometryFieldErrors = { ...('errors' in checked ? checked.errors : {}), ...serverErrors };

  const set = <K extends keyof GeometryFormValues>(field: K, value: GeometryFormValues[K]) => {
    setServerErrors({});
    setValues((v) => ({ ...v, [field]: value }));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if ('errors' in checked) return focusFirstError(GEOMETRY_FORM_ID, GEOMETRY_FIELD_ORDER, checked.errors);
    try {
      const saved = await mutation.mutateAsync({ deviceId: device.id, geometry: checked.input });
      toast({ title: 'Geometría guardada', description: `${device.name}: versión ${saved.version}.`, variant: 'success' });
      setValues(geometryFormFrom(saved));
    } catch (error) {
      showSubmitError(error, fieldOfGeometryError(error, maxLevelM), {
        prefix: GEOMETRY_FORM_ID,
        order: GEOMETRY_FIELD_ORDER,
        setErrors: setServerErrors,
        setFormError,
      });
    }
  }

  const num = (field: Exclude<GeometryField, 'sensor' | 'shapeKind' | 'points'>, label: string, unit: string, hint?: string) => (
    <FormField id={fieldId(field)} label={label} hint={hint} error={errors[field]}>
      <div className="relative">
        <Input
          {...fieldAria(fieldId(field), { hint, error: errors[field] })}
          autoComplete="off"
          inputMode="decimal"
          className={unit ? 'pr-12' : undefined}
          value={values[field]}
          onChange={(e) => set(field, e.target.value)}
        />
        {unit ? (
          <span aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-muted-foreground">
            {unit}
          </span>
        ) : null}
      </div>
    </FormField>
  );
  const crestSet = values.crestLevelM.trim() !== '';

  return (
    <form id={GEOMETRY_FORM_ID} onSubmit={onSubmit} noValidate className="grid gap-6" aria-busy={mutation.isPending}>
      <p className="text-sm text-muted-foreground">
        Nivel máximo del dispositivo: <span className="font-medium text-foreground tabular-nums">{formatNumber(maxLevelM)} m</span> · versión actual{' '}
        <span data-testid="geometry-current-version" className="font-medium text-foreground tabular-nums">
          {stored.version}
        </span>
      </p>

      <Group title="Sensor">
        <FormField id={fieldId('sensor')} label="Tipo de medida" error={errors.sensor}>
          <NativeSelect {...fieldAria(fieldId('sensor'), { error: errors.sensor })} value={values.sensor} onChange={(e) => set('sensor', e.target.value as GeometryFormValues['sensor'])}>
            <option value="level">Nivel</option>
            <option value="distance">Distancia</option>
          </NativeSelect>
        </FormField>
        {values.sensor === 'distance' ? num('mountHeightM', 'Altura de montaje', 'm', 'Altura del sensor sobre el nivel 0.') : null}
        {num('zeroOffsetM', 'Corrección de cero', 'm', 'Se suma a cada nivel.')}
        {num('crestLevelM', 'Nivel de vertedero', 'm', 'Vacío: sin vertedero.')}
      </Group>

      <Group title="Forma del depósito">
        <FormField id={fieldId('shapeKind')} label="Forma" error={errors.shapeKind}>
          <NativeSelect {...fieldAria(fieldId('shapeKind'), { error: errors.shapeKind })} value={values.shapeKind} onChange={(e) => set('shapeKind', e.target.value as ShapeKind)}>
            {SHAPES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        {values.shapeKind === 'rectangular' ? num('areaM2', 'Área', 'm²') : null}
        {values.shapeKind === 'vertical_cylinder' || values.shapeKind === 'horizontal_cylinder' ? num('diameterM', 'Diámetro', 'm') : null}
        {values.shapeKind === 'horizontal_cylinder' ? num('lengthM', 'Longitud', 'm') : null}
        {values.shapeKind === 'table' ? <PointsEditor rows={values.points} error={errors.points} onChange={(rows) => set('points', rows)} /> : null}
      </Group>

      <section aria-label="Vista previa" className="grid gap-2">
        <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Vista previa nivel → volumen</h3>
        <VolumePreview geometry={'geometry' in checked ? checked.geometry : null} maxLevelM={maxLevelM} />
      </section>

      {crestSet ? (
        <Group title="Vertedero">
          {num('weirWidthM', 'Ancho', 'm', 'Vacío: sin caudal de vertido.')}
          {num('weirCoefficient', 'Coeficiente de descarga', '', 'Entre 0 y 1 (0,62 por defecto).')}
        </Group>
      ) : null}

      <Group title="Caudal y desbordamientos" columns={2}>
        {num('flowWindowS', 'Ventana de caudal', 's', 'De 30 a 3600 s.')}
        {num('deadbandM', 'Banda muerta del desborde', 'm')}
        {num('onDelayS', 'Retardo de inicio', 's', 'De 0 a 3600 s.')}
        {num('offDelayS', 'Retardo de fin', 's', 'De 0 a 3600 s.')}
      </Group>

      <FormDialogFooter error={formError} pending={mutation.isPending} onCancel={onClose} icon={<Save aria-hidden="true" />} label="Guardar" pendingLabel="Guardando..." />

      <section aria-label="Versiones" className="grid gap-2 border-t pt-4">
        <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Versiones</h3>
        <GeometryVersions versions={stored.versions} />
      </section>
    </form>
  );
}

function Group({ title, children, columns = 2 }: { title: string; children: ReactNode; columns?: 2 | 3 }) {
  return (
    <fieldset className={columns === 3 ? 'grid min-w-0 gap-4 sm:grid-cols-3' : 'grid min-w-0 gap-4 sm:grid-cols-2'}>
      <legend className="mb-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</legend>
      {children}
    </fieldset>
  );
}

const PASTE_HINT = "Una fila por nivel, niveles y volúmenes crecientes. Puedes pegar líneas 'nivel;volumen' desde una hoja de cálculo.";

/** The strapping table: rows of level (m) and volume (m³); pasting several lines fills the rows. */
function PointsEditor({ rows, error, onChange }: { rows: PointRow[]; error?: string; onChange: (rows: PointRow[]) => void }) {
  const id = fieldId('points');
  const update = (i: number, key: keyof PointRow, value: string) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  const onPaste = (i: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = parsePastedPoints(event.clipboardData.getData('text'));
    if (pasted.length === 0 || (pasted.length === 1 && !/[;\t\n]/.test(event.clipboardData.getData('text')))) return;
    event.preventDefault();
    onChange([...rows.slice(0, i), ...pasted]);
  };
  return (
    <div className="grid gap-2 sm:col-span-2">
      <table className="w-full text-sm">
        <caption className="sr-only">Tabla de aforo</caption>
        <thead>
          <tr className="text-left text-muted-foreground">
            <th className="pb-1 font-medium">Nivel (m)</th>
            <th className="pb-1 font-medium">Volumen (m³)</th>
            <th className="sr-only">Quitar</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <td className="pr-2 pb-2">
                <Input
                  id={i === 0 ? id : undefined}
                  aria-label={`Nivel de la fila ${i + 1}`}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={row.level}
                  onChange={(e) => update(i, 'level', e.target.value)}
                  onPaste={onPaste(i)}
                />
              </td>
              <td className="pr-2 pb-2">
                <Input
                  aria-label={`Volumen de la fila ${i + 1}`}
                  aria-invalid={error ? true : undefined}
                  inputMode="decimal"
                  autoComplete="off"
                  value={row.volume}
                  onChange={(e) => update(i, 'volume', e.target.value)}
                  onPaste={onPaste(i)}
                />
              </td>
              <td className="w-11 pb-2">
                <Button type="button" variant="ghost" size="icon" aria-label={`Quitar la fila ${i + 1}`} disabled={rows.length <= 1} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => onChange([...rows, { level: '', volume: '' }])}>
        <Plus aria-hidden="true" />
        Añadir fila
      </Button>
      <FieldMessages id={id} hint={PASTE_HINT} error={error} />
    </div>
  );
}

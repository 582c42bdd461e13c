import { useMemo, useState, type FormEvent } from 'react';
import { Plus, Save } from 'lucide-react';
import { DEVICE_TYPE_LABELS, REPORT_FORMATS, REPORT_KIND_LABELS, REPORT_KINDS, REPORT_LIMITS, WEEKDAY_LABELS, type Device, type Report, type ReportKind, type User } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Check, Choice, Fieldset } from '@/components/ui/choice';
import { fieldAria, focusFirstError, FormField } from '@/components/ui/form-field';
import { Switch } from '@/components/ui/switch';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { LoadError } from '@/components/load-error';
import { useCreateReport, useUpdateReport } from '../api/reports';
import { FORMAT_LABELS, scheduleText, usesDayOfMonth } from '../utils/report-texts';
import { NEW_REPORT_VALUES, REPORT_FIELD_ORDER, toReportForm, validateReport, type ReportFieldErrors, type ReportFormValues } from '../utils/validate-report';
import { CheckList, type CheckItem } from './check-list';

const ID = 'report';
const EMAILS_HINT = 'Direcciones de correo adicionales, una por línea o separadas por comas.';
const KIND_HINTS: Record<ReportKind, string> = {
  daily: 'Un día: niveles, volúmenes y alarmas de cada dispositivo.',
  weekly: 'De lunes a domingo.',
  monthly: 'Un mes natural.',
  overflows: 'Los desbordamientos de un mes natural y su recuento 12/24.',
};

/** The users list as the route gives it: null when this person may not list users (GET /users is admin-only). */
export type UsersState = { data: User[] | undefined; error: Error | null; retry: () => void } | null;

interface ReportFormDialogProps {
  /** The definition to edit; none for 'Nuevo informe'. */
  report?: Report;
  devices: Device[];
  users: UsersState;
  onClose: () => void;
}

/** 'Nuevo informe' / 'Editar informe'. Mounted per opening, so its fields start from the definition. */
export function ReportFormDialog({ report, devices, users, onClose }: ReportFormDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        data-testid="report-form-dialog"
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
        // A stray click beside the dialog must not lose a half-filled form.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <ReportForm report={report} devices={devices} users={users} onClose={onClose} />
      </DialogContent>
    </Dialog>
  );
}

/** Ids the form holds that its list does not (a device removed, a user the list no longer has): kept, and shown by id. */
function withUnknown(items: CheckItem[], ids: readonly string[], detail: string): CheckItem[] {
  const known = new Set(items.map((i) => i.id));
  return [...items, ...ids.filter((id) => !known.has(id)).map((id) => ({ id, name: id, detail }))];
}

function ReportForm({ report, devices, users, onClose }: ReportFormDialogProps) {
  const create = useCreateReport();
  const update = useUpdateReport();
  const mutation = report ? update : create;
  const [values, setValues] = useState<ReportFormValues>(() => (report ? toReportForm(report) : NEW_REPORT_VALUES));
  const [errors, setErrors] = useState<ReportFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = <K extends keyof ReportFormValues>(key: K, value: ReportFormValues[K], ...clears: Array<keyof ReportFieldErrors>) => {
    setValues((v) => ({ ...v, [key]: value }));
    const fields = clears.length ? clears : [key as keyof ReportFieldErrors];
    setErrors((e) => (fields.some((f) => e[f]) ? { ...e, ...Object.fromEntries(fields.map((f) => [f, undefined])) } : e));
  };
  const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

  const deviceItems = useMemo(
    () =>
      withUnknown(
        [...devices].sort((a, b) => a.name.localeCompare(b.name, 'es')).map((d) => ({ id: d.id, name: d.name, detail: `${DEVICE_TYPE_LABELS[d.type]} · ${d.id}` })),
        values.deviceIds,
        'Dispositivo no encontrado',
      ),
    [devices, values.deviceIds],
  );
  const userItems = useMemo(() => {
    if (!users?.data) return [];
    const active = users.data.filter((u) => u.status === 'active' || values.userIds.includes(u.id)).sort((a, b) => a.name.localeCompare(b.name, 'es'));
    return withUnknown(
      active.map((u) => ({ id: u.id, name: u.name, detail: `@${u.username} · ${u.email}` })),
      values.userIds,
      'Usuario no encontrado',
    );
  }, [users?.data, values.userIds]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateReport(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return focusFirstError(ID, REPORT_FIELD_ORDER, checked.errors);
    }
    setErrors({});
    const done = (saved: Report) => {
      toast({ title: report ? 'Informe guardado' : 'Informe creado', description: saved.name, variant: 'success' });
      onClose();
    };
    // The server's 422 (an unknown device or recipient, an impossible schedule) is shown beside the buttons in its words.
    const failed = (error: Error) => setFormError(error.message);
    if (report) update.mutate({ id: report.id, input: checked.input }, { onSuccess: done, onError: failed });
    else create.mutate(checked.input, { onSuccess: done, onError: failed });
  }

  const schedulePreview = values.scheduled
    ? scheduleText(values.kind, {
        time: values.time || '--:--',
        ...(values.kind === 'weekly' && values.weekday ? { weekday: Number(values.weekday) } : {}),
        ...(usesDayOfMonth(values.kind) && Number(values.dayOfMonth) >= 1 && Number(values.dayOfMonth) <= 28 ? { dayOfMonth: Number(values.dayOfMonth) } : {}),
      })
    : null;

  return (
    <form onSubmit={onSubmit} noValidate className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>{report ? 'Editar informe' : 'Nuevo informe'}</DialogTitle>
        <DialogDescription>Qué se resume, en qué formatos, para quién y cuándo se genera solo.</DialogDescription>
      </DialogHeader>

      <div className="grid min-w-0 gap-4 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label="Nombre" error={errors.name} className="sm:col-span-2">
          <Input
            {...fieldAria(`${ID}-name`, { error: errors.name })}
            autoComplete="off"
            maxLength={REPORT_LIMITS.nameMax}
            placeholder="Parte diario de niveles"
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </FormField>
        <FormField id={`${ID}-kind`} label="Tipo" hint={KIND_HINTS[values.kind]} error={errors.kind}>
          <NativeSelect {...fieldAria(`${ID}-kind`, { hint: true, error: errors.kind })} value={values.kind} onChange={(e) => set('kind', e.target.value as ReportKind, 'kind', 'weekday', 'dayOfMonth')}>
            {REPORT_KINDS.map((k) => (
              <option key={k} value={k}>
                {REPORT_KIND_LABELS[k]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <Fieldset id={`${ID}-formats`} legend="Formatos" error={errors.formats}>
          <div className="flex flex-wrap gap-2">
            {REPORT_FORMATS.map((f) => (
              <Check key={f} checked={values.formats.includes(f)} onChange={() => set('formats', toggle(values.formats, f) as ReportFormValues['formats'])}>
                {FORMAT_LABELS[f]}
              </Check>
            ))}
          </div>
        </Fieldset>
      </div>

      <Fieldset id={`${ID}-deviceIds`} legend="Dispositivos" error={errors.deviceIds}>
        <div className="flex flex-wrap gap-2">
          <Choice name={`${ID}-devices-mode`} checked={values.allDevices} onChange={() => set('allDevices', true, 'deviceIds')}>
            Todos los dispositivos
          </Choice>
          <Choice name={`${ID}-devices-mode`} checked={!values.allDevices} onChange={() => set('allDevices', false, 'deviceIds')}>
            Elegir dispositivos
          </Choice>
        </div>
        {values.allDevices ? (
          <p className="text-xs text-muted-foreground">También los que se den de alta más adelante.</p>
        ) : (
          <CheckList label="Dispositivos del informe" items={deviceItems} checked={values.deviceIds} onToggle={(id) => set('deviceIds', toggle(values.deviceIds, id))} empty="No hay dispositivos dados de alta." />
        )}
      </Fieldset>

      <Fieldset id={`${ID}-recipients`} legend="Destinatarios" error={errors.recipients} hint={`Reciben por correo cada informe programado y los generados a mano con «Enviar a los destinatarios». Hasta ${REPORT_LIMITS.recipientsMax} en total.`}>
        {users ? (
          <CheckList
            label="Usuarios destinatarios"
            items={userItems}
            checked={values.userIds}
            onToggle={(id) => set('userIds', toggle(values.userIds, id), 'recipients')}
            loading={users.data === undefined && !users.error}
            loadError={users.error && !users.data ? <LoadError message={users.error.message} onRetry={users.retry} /> : null}
            empty="No hay usuarios activos."
          />
        ) : values.userIds.length > 0 ? (
          <p className="text-sm text-muted-foreground">Además, {values.userIds.length === 1 ? '1 usuario' : `${values.userIds.length} usuarios`} del sistema.</p>
        ) : null}
        <label htmlFor={`${ID}-emails`} className="mt-1 text-sm font-medium">
          Otras direcciones de correo
        </label>
        <Textarea
          id={`${ID}-emails`}
          aria-describedby={`${ID}-emails-hint`}
          aria-invalid={errors.recipients ? true : undefined}
          rows={3}
          autoCapitalize="off"
          spellCheck={false}
          placeholder="nombre@ejemplo.es"
          value={values.emails}
          onChange={(e) => set('emails', e.target.value, 'recipients')}
        />
        <p id={`${ID}-emails-hint`} className="text-xs text-muted-foreground">
          {EMAILS_HINT}
        </p>
      </Fieldset>

      <Fieldset id={`${ID}-schedule`} legend="Programación" hint={schedulePreview ? `Se genera y se envía a los destinatarios ${schedulePreview.charAt(0).toLowerCase()}${schedulePreview.slice(1)} (hora del servidor), con el último periodo completo.` : 'Solo se genera cuando alguien pulsa «Generar ahora».'}>
        <div className="flex flex-wrap gap-2">
          <Choice name={`${ID}-schedule-mode`} checked={!values.scheduled} onChange={() => set('scheduled', false, 'time', 'weekday', 'dayOfMonth')}>
            Solo bajo demanda
          </Choice>
          <Choice name={`${ID}-schedule-mode`} checked={values.scheduled} onChange={() => set('scheduled', true)}>
            Programado
          </Choice>
        </div>
        {values.scheduled ? (
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            <FormField id={`${ID}-time`} label="Hora" error={errors.time}>
              <Input type="time" {...fieldAria(`${ID}-time`, { error: errors.time })} value={values.time} onChange={(e) => set('time', e.target.value)} />
            </FormField>
            {values.kind === 'weekly' ? (
              <FormField id={`${ID}-weekday`} label="Día de la semana" error={errors.weekday}>
                <NativeSelect {...fieldAria(`${ID}-weekday`, { error: errors.weekday })} value={values.weekday} onChange={(e) => set('weekday', e.target.value)}>
                  <option value="">Elija un día</option>
                  {WEEKDAY_LABELS.map((label, i) => (
                    <option key={label} value={String(i + 1)}>
                      {label.charAt(0).toUpperCase() + label.slice(1)}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            ) : null}
            {usesDayOfMonth(values.kind) ? (
              <FormField id={`${ID}-dayOfMonth`} label="Día del mes" hint="Del 1 al 28." error={errors.dayOfMonth}>
                <Input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={28}
                  step={1}
                  className="tabular-nums"
                  {...fieldAria(`${ID}-dayOfMonth`, { hint: true, error: errors.dayOfMonth })}
                  value={values.dayOfMonth}
                  onChange={(e) => set('dayOfMonth', e.target.value)}
                />
              </FormField>
            ) : null}
          </div>
        ) : null}
      </Fieldset>

      <label className="flex min-h-11 cursor-pointer items-center justify-between gap-4 rounded-lg border p-3">
        <span className="grid gap-0.5">
          <span className="text-sm font-medium">Activo</span>
          <span className="text-xs text-muted-foreground">{values.enabled ? 'La programación se ejecuta.' : 'Pausado: la programación no se ejecuta.'}</span>
        </span>
        <Switch checked={values.enabled} onChange={(on) => set('enabled', on)} />
      </label>

      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={report ? <Save aria-hidden="true" /> : <Plus aria-hidden="true" />}
        label={report ? 'Guardar' : 'Crear informe'}
        pendingLabel="Guardando..."
      />
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MapPinPlus, Pencil, Save, Trash2 } from 'lucide-react';
import type { Site } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, focusFirstError, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useCreateSite, useDeleteSite, useSites, useUpdateSite } from '../api/sites-api';
import { readSiteForm, SITE_FIELD_ORDER, siteFormFrom, type SiteFormErrors, type SiteFormValues } from '../utils/site-form';

const FORM_ID = 'site-form';

/**
 * 'Nuevo sitio' (the map) or 'Datos del sitio' (a site's page): name, the site it is inside,
 * coordinates and address; 'Datos del sitio' also deletes the site.
 */
export function SiteFormButton({ site }: { site?: Site }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        {site ? <Pencil aria-hidden="true" /> : <MapPinPlus aria-hidden="true" />}
        {site ? 'Datos del sitio' : 'Nuevo sitio'}
      </Button>
      <DialogContent data-testid="site-form-dialog" className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        {open ? <SiteForm site={site ?? null} onClose={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function SiteForm({ site, onClose }: { site: Site | null; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateSite();
  const update = useUpdateSite(site?.id ?? '');
  const remove = useDeleteSite(site?.id ?? '');
  const sites = useSites();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [values, setValues] = useState<SiteFormValues>(() => siteFormFrom(site));
  const [errors, setErrors] = useState<SiteFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending || remove.isPending;
  const set = (field: keyof SiteFormValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  // Every other site; one inside this one is offered too, and the server's refusal (a loop) shows on the field.
  const parents = (sites.data ?? []).filter((s) => s.id !== site?.id);

  async function onDelete() {
    if (!site) return;
    setFormError(null);
    try {
      await remove.mutateAsync();
      toast({ title: 'Sitio eliminado', description: site.name, variant: 'success' });
      onClose();
      navigate('/map');
    } catch (error) {
      // 409 SITE_HAS_CHILDREN: the server's message says to move or delete the sites inside it first.
      setFormError(error instanceof Error ? error.message : String(error));
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const { errors: found, body } = readSiteForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(FORM_ID, SITE_FIELD_ORDER, found);
    try {
      const saved = site ? await update.mutateAsync(body) : await create.mutateAsync(body);
      toast({ title: site ? 'Sitio actualizado' : 'Sitio creado', description: saved.name, variant: 'success' });
      onClose();
      if (!site) navigate(`/sites/${encodeURIComponent(saved.id)}`);
    } catch (error) {
      const details = isApiError(error) ? (error.details as { field?: string; reason?: string } | undefined) : undefined;
      const field = SITE_FIELD_ORDER.find((f) => f === details?.field);
      // On the field the server names (focused): a name taken, a loop of sites, a coordinate out of range.
      const onField: SiteFormErrors | null =
        isApiError(error) && error.code === 'SITE_NAME_TAKEN' ? { name: error.message } : field ? { [field]: details?.reason ?? (error as Error).message } : null;
      if (onField) {
        setErrors(onField);
        focusFirstError(FORM_ID, SITE_FIELD_ORDER, onField);
      } else setFormError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={pending}>
      <DialogHeader>
        <DialogTitle>{site ? 'Datos del sitio' : 'Nuevo sitio'}</DialogTitle>
        <DialogDescription>Sin coordenadas el sitio no aparece en el mapa, pero sí en la lista.</DialogDescription>
      </DialogHeader>
      <FormField id={`${FORM_ID}-name`} label="Nombre" error={errors.name}>
        <Input {...fieldAria(`${FORM_ID}-name`, { error: errors.name })} value={values.name} onChange={set('name')} autoComplete="off" />
      </FormField>
      <FormField id={`${FORM_ID}-parentId`} label="Sitio superior" hint="El sitio dentro del que está este (una cuenca, una planta); ninguno si no está dentro de otro." error={errors.parentId}>
        <NativeSelect {...fieldAria(`${FORM_ID}-parentId`, { hint: true, error: errors.parentId })} value={values.parentId} onChange={set('parentId')}>
          <option value="">Ninguno</option>
          {parents.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={`${FORM_ID}-lat`} label="Latitud" hint="Grados decimales, p. ej. 40,4168" error={errors.lat}>
          <Input {...fieldAria(`${FORM_ID}-lat`, { hint: true, error: errors.lat })} value={values.lat} onChange={set('lat')} inputMode="decimal" autoComplete="off" />
        </FormField>
        <FormField id={`${FORM_ID}-lon`} label="Longitud" hint="Grados decimales, p. ej. −3,7038" error={errors.lon}>
          <Input {...fieldAria(`${FORM_ID}-lon`, { hint: true, error: errors.lon })} value={values.lon} onChange={set('lon')} inputMode="decimal" autoComplete="off" />
        </FormField>
      </div>
      <FormField id={`${FORM_ID}-address`} label="Dirección (opcional)" error={errors.address}>
        <Input {...fieldAria(`${FORM_ID}-address`, { error: errors.address })} value={values.address} onChange={set('address')} autoComplete="off" />
      </FormField>
      {site ? (
        <div className="flex flex-col gap-2 rounded-lg border border-dashed p-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-muted-foreground">Sus dispositivos se conservan, sin sitio; las versiones de su sinóptico se eliminan.</p>
          <Button type="button" variant="outline" size="sm" className="text-crit-fg" disabled={pending} onClick={() => setConfirmDelete(true)}>
            <Trash2 aria-hidden="true" />
            Eliminar sitio
          </Button>
        </div>
      ) : null}
      <FormDialogFooter error={formError} pending={pending} onCancel={onClose} icon={<Save aria-hidden="true" />} label="Guardar" pendingLabel="Guardando…" />
      {site ? (
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title={`¿Eliminar el sitio «${site.name}»?`}
          description="Sus dispositivos se conservan pero dejan de pertenecer al sitio, y todas las versiones de su sinóptico se eliminan. Esta acción no se puede deshacer."
          confirmLabel="Eliminar sitio"
          destructive
          onConfirm={() => void onDelete()}
        />
      ) : null}
    </form>
  );
}

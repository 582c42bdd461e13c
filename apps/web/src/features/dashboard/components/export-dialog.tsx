import { useId, useRef, useState, type FormEvent } from 'react';
import { FileSpreadsheet, FileText } from 'lucide-react';
import { UI_TEXTS, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useExportableDevices, useExportHistory, type ExportFormat } from '../api/export-history';
import { EXPORT_RANGES, exportTimes, toLocalInput, type ExportRangeId } from './export-range';

// The seed's texts are for Excel; these are their CSV counterparts (UI-only).
const CSV_SUCCESS_DESCRIPTION = 'Los datos han sido exportados a CSV.';
const CSV_ERROR_DESCRIPTION = 'No se pudo generar el archivo CSV.';

function notify(format: ExportFormat, outcome: { ok: true } | { ok: false; error: unknown }) {
  const error = outcome.ok ? null : outcome.error;
  if (outcome.ok) {
    toast({ title: UI_TEXTS.exportSuccessTitle, description: format === 'xlsx' ? UI_TEXTS.exportSuccessDescription : CSV_SUCCESS_DESCRIPTION, variant: 'success' });
  } else if (isApiError(error) && error.status === 404 && error.code === 'NO_DATA') {
    toast({ title: UI_TEXTS.exportNoDataTitle, description: error.message });
  } else {
    toast({ title: UI_TEXTS.exportErrorTitle, description: format === 'xlsx' ? UI_TEXTS.exportErrorDescription : CSV_ERROR_DESCRIPTION, variant: 'destructive' });
  }
}

/**
 * 'Exportar a Excel': asks for a range and devices, then downloads the server-built file. With the
 * dashboard narrowed to a site, the choice is that site's devices, retired ones included.
 */
export function ExportDialog({ devices, siteId = null }: { devices: Device[]; siteId?: string | null }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [rangeId, setRangeId] = useState<ExportRangeId>('24h');
  const [custom, setCustom] = useState({ from: '', to: '' });
  // null = every device (also those that appear once the full list arrives).
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const exportable = useExportableDevices(open);
  const mutation = useExportHistory();
  const [pendingFormat, setPendingFormat] = useState<ExportFormat | null>(null);
  // Set synchronously: two clicks in the same frame must not start two downloads.
  const busyRef = useRef(false);

  const activeIds = new Set(devices.map((d) => d.id));
  const known = exportable.data && exportable.data.length > 0 ? exportable.data : devices;
  const list = siteId ? known.filter((d) => d.siteId === siteId) : known;
  const isChecked = (deviceId: string) => selected === null || selected.has(deviceId);
  const checkedCount = list.filter((d) => isChecked(d.id)).length;

  function toggle(deviceId: string) {
    const next = new Set(selected ?? list.map((d) => d.id));
    if (next.has(deviceId)) next.delete(deviceId);
    else next.add(deviceId);
    setSelected(next.size === list.length ? null : next);
  }

  function chooseRange(next: ExportRangeId) {
    if (next === 'custom' && !custom.from) {
      const now = Date.now();
      setCustom({ from: toLocalInput(now - 24 * 3600_000), to: toLocalInput(now) });
    }
    setRangeId(next);
    setError(null);
  }

  function run(format: ExportFormat) {
    if (busyRef.current) return;
    const times = exportTimes(rangeId, custom, Date.now());
    if ('error' in times) return setError(times.error);
    if (checkedCount === 0) return setError('Seleccione al menos un dispositivo.');
    setError(null);
    busyRef.current = true;
    setPendingFormat(format);
    // All ticked: no deviceIds, so the server includes every device it keeps history for (of the site, with one).
    const deviceIds = selected === null ? undefined : list.filter((d) => selected.has(d.id)).map((d) => d.id);
    mutation.mutate(
      { format, ...times, deviceIds, ...(siteId ? { siteId } : {}) },
      {
        onSuccess: () => {
          notify(format, { ok: true });
          setOpen(false);
        },
        onError: (e) => notify(format, { ok: false, error: e }),
        onSettled: () => {
          busyRef.current = false;
          setPendingFormat(null);
        },
      },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    run('xlsx');
  }

  const busy = mutation.isPending;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button className="w-full sm:w-auto" disabled={busy}>
          {busy ? <Spinner /> : <FileSpreadsheet aria-hidden="true" />}
          Exportar a Excel
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="export-dialog" className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Exportar historial</DialogTitle>
          <DialogDescription>
            Elija el periodo y los dispositivos{siteId ? ' del sitio' : ''}. Se crea una hoja por dispositivo con lecturas.
          </DialogDescription>
        </DialogHeader>
        <form id={`${id}-form`} onSubmit={onSubmit} noValidate className="grid gap-5">
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Periodo</legend>
            <div className="flex flex-wrap gap-1.5">
              {EXPORT_RANGES.map((r) => (
                <Button
                  key={r.id}
                  variant={rangeId === r.id ? 'default' : 'outline'}
                  aria-pressed={rangeId === r.id}
                  className="min-w-11 grow px-3 sm:grow-0"
                  onClick={() => chooseRange(r.id)}
                >
                  {r.label}
                </Button>
              ))}
            </div>
            {rangeId === 'custom' ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-from`}>Desde</Label>
                  <Input id={`${id}-from`} type="datetime-local" value={custom.from} max={custom.to || undefined} onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))} />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-to`}>Hasta</Label>
                  <Input id={`${id}-to`} type="datetime-local" value={custom.to} min={custom.from || undefined} onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))} />
                </div>
              </div>
            ) : null}
          </fieldset>

          <fieldset className="grid gap-1">
            <div className="mb-1 flex items-center justify-between gap-2">
              <legend className="text-sm font-medium">Dispositivos</legend>
              <Button variant="link" className="h-auto min-h-11 px-0 sm:min-h-0" onClick={() => setSelected(checkedCount === list.length ? new Set() : null)}>
                {checkedCount === list.length ? 'Quitar todos' : 'Seleccionar todos'}
              </Button>
            </div>
            <ul className="grid max-h-64 gap-0.5 overflow-y-auto rounded-lg border p-1">
              {list.map((d) => (
                <li key={d.id}>
                  <label className={cn('flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent', !isChecked(d.id) && 'text-muted-foreground')}>
                    <input type="checkbox" className="size-4 shrink-0 accent-primary" checked={isChecked(d.id)} onChange={() => toggle(d.id)} />
                    <span className="min-w-0 flex-1">
                      <span className="block text-sm leading-tight font-medium break-words">{d.name}</span>
                      <span className="block font-mono text-xs text-muted-foreground">
                        {d.id}
                        {!activeIds.has(d.id) && devices.length > 0 ? ' · retirado' : ''}
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>

          {error ? (
            <p role="alert" className="text-sm font-medium text-crit-fg">
              {error}
            </p>
          ) : null}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => run('csv')} disabled={busy}>
            {pendingFormat === 'csv' ? <Spinner /> : <FileText aria-hidden="true" />}
            {pendingFormat === 'csv' ? 'Generando…' : 'Descargar CSV'}
          </Button>
          <Button type="submit" form={`${id}-form`} disabled={busy}>
            {pendingFormat === 'xlsx' ? <Spinner /> : <FileSpreadsheet aria-hidden="true" />}
            {pendingFormat === 'xlsx' ? 'Generando…' : 'Descargar Excel'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

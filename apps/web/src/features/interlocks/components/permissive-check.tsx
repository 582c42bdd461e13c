import { useMutation } from '@tanstack/react-query';
import { FlaskConical, Lock, ShieldAlert, ShieldCheck } from 'lucide-react';
import { commandLabel, type Permissives } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useInstallationTimeZone } from '@/features/auth/api/get-config';
import { formatClockIn, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { getPermissives } from '../api/permissives';
import { ReasonList } from './permit-notes';

/** What a check's demands are, in words: 'un comentario y la contraseña'. */
function demandsText(requires: Permissives['requires']): string {
  const parts = [requires.comment ? 'un comentario' : null, requires.password ? 'la contraseña de quien lo envía' : null, requires.approval ? 'la aprobación de otra persona' : null].filter(Boolean);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}`;
}

export function VerdictView({ check, at }: { check: Permissives; at: number }) {
  const timeZone = useInstallationTimeZone();
  const verb = commandLabel(check.command);
  const free = check.allowed && check.mode === null;
  const tone = !check.allowed ? 'border-crit/30 bg-crit/8 text-crit-fg' : free ? 'border-ok/30 bg-ok/12 text-ok-fg' : 'border-warn/40 bg-warn/10 text-warn-fg';
  const Icon = !check.allowed ? Lock : free ? ShieldCheck : ShieldAlert;
  const headline = !check.allowed ? `«${verb}» está bloqueado ahora.` : free ? `«${verb}» se permite ahora: se cumplen todas las condiciones.` : `«${verb}» se permite ahora con ${demandsText(check.requires)}.`;
  return (
    <div role="status" data-testid="permissive-verdict" className={cn('grid gap-1 rounded-md border px-3 py-2 text-sm', tone)}>
      <p className="flex items-start gap-1.5 font-semibold">
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {headline}
      </p>
      {check.reasons.length > 0 ? <ReasonList reasons={check.reasons} /> : null}
      {check.bypassed.map((b) => (
        <p key={b.interlockId} className="text-foreground">
          «{b.name}» anulado hasta {formatClockIn(b.until, timeZone)}: no cuenta mientras dure.
        </p>
      ))}
      <p className="text-xs text-foreground/80">Comprobado a las {formatTime(at)} con los valores de ese momento.</p>
    </div>
  );
}

/**
 * 'Probar con los valores actuales': the permissive check of a device's command now, as the
 * server judges it with its stored interlocks (not a form's unsaved changes).
 */
export function PermissiveCheck({ deviceId, command, note, className }: { deviceId: string; command: string; note?: string; className?: string }) {
  const test = useMutation({ mutationFn: async () => ({ check: await getPermissives(deviceId, command), at: Date.now() }) });
  const current = test.data && test.data.check.deviceId === deviceId && test.data.check.command === command ? test.data : null;
  return (
    <div className={cn('grid gap-2', className)}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Button type="button" variant="outline" size="sm" disabled={!deviceId || !command || test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? <Spinner /> : <FlaskConical aria-hidden="true" />}
          Probar con los valores actuales
        </Button>
        {note ? <span className="text-xs text-muted-foreground">{note}</span> : null}
      </div>
      {test.isError ? <p className="text-sm font-medium text-crit-fg">No se pudo comprobar: {test.error.message}</p> : null}
      {current ? <VerdictView check={current.check} at={current.at} /> : null}
    </div>
  );
}

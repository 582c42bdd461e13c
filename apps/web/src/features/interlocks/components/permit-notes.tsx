import { Lock, ShieldAlert, ShieldOff } from 'lucide-react';
import { commandLabel, type InterlockReason } from '@agua/shared';
import { useInstallationTimeZone } from '@/features/auth/api/get-config';
import { formatClockIn } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { CommandPermit } from '../hooks/use-command-permits';

/** The id of a command's notes, for its button's aria-describedby. */
export const permitNotesId = (deviceId: string, command: string) => `permit-${deviceId}-${command}`;

/** Whether a command's check has anything to say under its button. */
export function hasPermitNotes(permit: CommandPermit | undefined): permit is CommandPermit {
  return permit !== undefined && (permit.reasons.length > 0 || permit.bypassed.length > 0);
}

export function ReasonList({ reasons, className }: { reasons: readonly InterlockReason[]; className?: string }) {
  return (
    <ul className={cn('grid gap-1', className)}>
      {reasons.map((r, i) => (
        <li key={`${r.interlockId}-${i}`} className="break-words">
          {r.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * What the permissive check says of each command, as text under the buttons (never only a
 * tooltip): a blocked one and why, the demands of the others, the bypasses in force.
 */
export function PermitNotes({ deviceId, permits }: { deviceId: string; permits: readonly (CommandPermit | undefined)[] }) {
  const timeZone = useInstallationTimeZone();
  const shown = permits.filter(hasPermitNotes);
  if (shown.length === 0) return null;
  return (
    <div className="grid gap-2">
      {shown.map((p) => (
        <div
          key={p.command}
          id={permitNotesId(deviceId, p.command)}
          data-testid={permitNotesId(deviceId, p.command)}
          className={cn(
            'grid gap-1 rounded-md border px-3 py-2 text-xs',
            p.blocked ? 'border-crit/30 bg-crit/8 text-crit-fg' : p.reasons.length > 0 ? 'border-warn/40 bg-warn/10 text-warn-fg' : 'border-border bg-muted text-foreground',
          )}
        >
          <p className="flex items-center gap-1.5 font-semibold">
            {p.blocked ? <Lock aria-hidden="true" className="size-3.5 shrink-0" /> : p.reasons.length > 0 ? <ShieldAlert aria-hidden="true" className="size-3.5 shrink-0" /> : <ShieldOff aria-hidden="true" className="size-3.5 shrink-0" />}
            {commandLabel(p.command)}
            {p.blocked ? ' bloqueado' : p.reasons.length > 0 ? ' con condiciones' : ''}
          </p>
          {p.reasons.length > 0 ? <ReasonList reasons={p.reasons} /> : null}
          {p.bypassed.map((b) => (
            <p key={b.interlockId} className="text-foreground">
              Enclavamiento «{b.name}» anulado hasta {formatClockIn(b.until, timeZone)}
            </p>
          ))}
        </div>
      ))}
    </div>
  );
}

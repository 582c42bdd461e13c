import { useState } from 'react';
import { Hourglass } from 'lucide-react';
import { can, commandLabel, type Command, type Interlock } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/device/relative-time';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useInterlocks } from '@/features/interlocks/api/interlocks';
import { useNow } from '@/hooks/use-now';
import { useLiveStatus } from '@/lib/live-socket';
import { useAwaitingCommands } from '../api/approvals';
import { formatTimeLeft } from '../utils/time-left';
import { DecisionDialog, type Decision } from './decision-dialog';

/** The interlocks a waiting command passed, by name (the list every role may read). */
function interlockNames(command: Command, interlocks: readonly Interlock[] | undefined): string[] {
  const names = new Map((interlocks ?? []).map((i) => [i.id, i.name]));
  return command.overrides.filter((o) => o.mode === 'two_person').map((o) => names.get(o.interlockId) ?? o.interlockId);
}

/**
 * 'Aprobación pendiente' at the top of every screen for users with write: the two-person commands
 * waiting for a second person, with device, command, issuer, comment and the time left. Others
 * may 'Aprobar' or 'Rechazar'; the issuer sees it waiting and may only 'Rechazar'. Viewers never
 * see it. `deviceName` comes from the layout (features do not import the devices list).
 */
export function ApprovalPanel({ deviceName, enabled }: { deviceName: (id: string) => string; enabled: boolean }) {
  const { user } = useAuth();
  const mayDecide = enabled && can(user, 'write');
  const live = useLiveStatus().state === 'open';
  const { data } = useAwaitingCommands(mayDecide, live);
  const interlocks = useInterlocks(mayDecide);
  const now = useNow();
  const [open, setOpen] = useState<{ command: Command; decision: Decision } | null>(null);
  // A command past its time leaves at once; the server's expired frame follows within a second.
  const waiting = (data ?? []).filter((c) => !c.approvalExpiresAt || Date.parse(c.approvalExpiresAt) > now);
  if (!mayDecide || !user) return null;
  // Mounted beside the list, not in it: an approval that empties the list still ends with its toast.
  const dialog = open ? <DecisionDialog key={`${open.command.id}-${open.decision}`} command={open.command} decision={open.decision} deviceName={deviceName(open.command.deviceId)} onClose={() => setOpen(null)} /> : null;
  const list =
    waiting.length === 0 ? null : (
      <section aria-labelledby="approvals-title" data-testid="approval-panel" className="mb-6 grid gap-3 rounded-lg border border-warn/40 bg-warn/10 px-4 py-3">
        <h2 id="approvals-title" className="flex items-center gap-2 text-sm font-semibold text-warn-fg">
          <Hourglass aria-hidden="true" className="size-4 shrink-0" />
          Aprobación pendiente
        </h2>
        <ul className="grid gap-2">
          {waiting.map((c) => {
            const mine = c.issuedBy?.kind === 'user' && c.issuedBy.id === user.id;
            const name = deviceName(c.deviceId);
            const names = interlockNames(c, interlocks.data);
            return (
              <li key={c.id} data-testid={`approval-${c.id}`} className="grid gap-2 rounded-md border bg-card px-3 py-2 text-sm @3xl:grid-cols-[minmax(0,1fr)_auto] @3xl:items-center">
                <div className="grid min-w-0 gap-0.5">
                  <p className="font-semibold break-words">
                    {commandLabel(c.command)} · {name}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Solicitado por {mine ? 'usted' : (c.issuedBy?.name ?? 'Sistema')} <RelativeTime value={c.issuedAt} />
                    {c.approvalExpiresAt ? (
                      <>
                        {' '}
                        · caduca en <span className="font-medium text-foreground tabular-nums">{formatTimeLeft(Date.parse(c.approvalExpiresAt), now)}</span>
                      </>
                    ) : null}
                  </p>
                  {c.comment ? <p className="text-xs break-words">Comentario: {c.comment}</p> : null}
                  {names.length > 0 ? <p className="text-xs break-words text-muted-foreground">Enclavamiento: {names.join(', ')}</p> : null}
                  {mine ? <p className="text-xs font-medium">En espera de que otra persona lo apruebe.</p> : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  {mine ? null : (
                    <Button size="sm" onClick={() => setOpen({ command: c, decision: 'approve' })} aria-label={`Aprobar ${commandLabel(c.command)} en ${name}`}>
                      Aprobar
                    </Button>
                  )}
                  <Button size="sm" variant="outline" onClick={() => setOpen({ command: c, decision: 'reject' })} aria-label={`Rechazar ${commandLabel(c.command)} en ${name}`}>
                    Rechazar
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </section>
    );
  return (
    <>
      {list}
      {dialog}
    </>
  );
}

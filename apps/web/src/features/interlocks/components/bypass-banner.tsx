import { Link } from 'react-router';
import { ShieldOff } from 'lucide-react';
import { can, commandLabel } from '@agua/shared';
import { useInstallationTimeZone } from '@/features/auth/api/get-config';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useNow } from '@/hooks/use-now';
import { formatClockIn } from '@/lib/format';
import { runningBypasses } from '@/lib/interlock-cache';
import { cn } from '@/lib/utils';
import { useBypasses } from '../api/bypasses';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * On every signed-in screen while an interlock is bypassed: 'Enclavamiento anulado hasta HH:MM'
 * (the installation's time), naming the interlock, its device and command, who bypassed it and
 * why. From the live socket's hello and interlock frames; it leaves by itself at the bypass's end,
 * frame or not. `deviceName` comes from the layout (features do not import the devices list).
 */
export function BypassBanner({ deviceName, enabled, className }: { deviceName: (id: string) => string; enabled: boolean; className?: string }) {
  const { user } = useAuth();
  const { data } = useBypasses(enabled);
  const now = useNow();
  const timeZone = useInstallationTimeZone();
  const running = runningBypasses(data ?? [], now);
  if (!enabled || running.length === 0) return null;
  const zoneNote = timeZone && timeZone !== BROWSER_ZONE ? ' (hora de la instalación)' : '';
  return (
    <div role="status" data-testid="bypass-banner" className={cn('mb-6 flex items-start gap-3 rounded-lg border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-warn-fg', className)}>
      <ShieldOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="grid min-w-0 flex-1 gap-1">
        <ul className="grid gap-1">
          {running.map((i) => (
            <li key={i.id} className="break-words">
              <strong>
                Enclavamiento anulado hasta {formatClockIn(i.bypass!.until, timeZone, now)}
                {zoneNote}
              </strong>
              : «{i.name}» ({deviceName(i.deviceId)} · {commandLabel(i.command)}). Lo anuló {i.bypass!.by.name}: {i.bypass!.comment}
            </li>
          ))}
        </ul>
        <p className="text-xs text-foreground">Mientras dure, el comando se envía aunque sus condiciones no se cumplan: vigílelo usted.</p>
        {can(user, 'manage_devices') ? (
          <Link to="/interlocks" className="inline-flex min-h-11 items-center justify-self-start text-sm font-medium text-foreground underline underline-offset-4 hover:text-primary sm:min-h-0">
            Ver enclavamientos
          </Link>
        ) : null}
      </div>
    </div>
  );
}

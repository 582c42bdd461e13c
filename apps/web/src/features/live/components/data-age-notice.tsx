import { WifiOff } from 'lucide-react';
import { useNow } from '@/hooks/use-now';
import { formatRelative } from '@/lib/format';
import { getLastLiveMessageAt, useLiveStatus } from '@/lib/live-socket';

/**
 * Shown on data screens while the live link is down, so that nobody takes old values for current
 * ones. `fetchedAt` is when the screen's data last came over HTTP (polling continues meanwhile).
 */
export function DataAgeNotice({ fetchedAt }: { fetchedAt?: number }) {
  const { state, everOpened } = useLiveStatus();
  const now = useNow();
  if (state === 'open' || (state === 'connecting' && !everOpened)) return null;
  const last = Math.max(getLastLiveMessageAt() ?? 0, fetchedAt ?? 0);
  return (
    <div role="status" className="flex items-start gap-3 rounded-lg border border-crit/30 bg-crit/8 px-4 py-3 text-sm">
      <WifiOff className="mt-0.5 size-4 shrink-0 text-crit-fg" aria-hidden="true" />
      <p>
        <span className="font-semibold text-crit-fg">{state === 'stale' ? 'Sin datos en tiempo real.' : 'Sin conexión en tiempo real.'}</span>{' '}
        <span className="text-muted-foreground">
          {last > 0 ? `Los datos mostrados son de ${formatRelative(last, now)}.` : 'Los datos mostrados pueden no estar actualizados.'}{' '}
          {state === 'stale' ? 'Esperando al servidor…' : 'Reintentando…'}
        </span>
      </p>
    </div>
  );
}

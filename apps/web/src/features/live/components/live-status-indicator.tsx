import { useLiveStatus } from '@/lib/live-socket';
import { cn } from '@/lib/utils';

/**
 * The header's 'Sistema Activo' light. It is honest: green only while live frames arrive (the
 * server's heartbeat comes every 5 s), 'Sin datos en tiempo real' when an open socket has been
 * silent for 10 s, red 'Sin conexión' when it dropped, gray while the first connection is made.
 */
export function LiveStatusIndicator() {
  const { state, everOpened } = useLiveStatus();
  const notLive = { dot: 'bg-crit', text: 'text-crit-fg', ring: 'border-crit/30 bg-crit/10' };
  const view =
    state === 'open'
      ? { label: 'Sistema Activo', dot: 'bg-ok', text: 'text-ok-fg', ring: 'border-ok/30 bg-ok/10' }
      : state === 'connecting' && !everOpened
        ? { label: 'Conectando…', dot: 'bg-off', text: 'text-muted-foreground', ring: 'border-border bg-muted' }
        : state === 'stale'
          ? { label: 'Sin datos en tiempo real', ...notLive }
          : { label: 'Sin conexión', ...notLive };
  return (
    <div
      data-testid="live-status"
      data-state={state}
      role="status"
      aria-live="polite"
      className={cn('inline-flex h-8 items-center gap-2 rounded-full border px-3 text-xs font-semibold whitespace-nowrap', view.ring, view.text)}
    >
      <span aria-hidden="true" className="relative flex size-2">
        {state === 'open' ? <span className="absolute inline-flex size-full animate-ping rounded-full bg-ok opacity-50 motion-reduce:hidden" /> : null}
        <span className={cn('relative inline-flex size-2 rounded-full', view.dot)} />
      </span>
      {view.label}
    </div>
  );
}

import { ArrowDownToLine, ArrowUpFromLine, CircleHelp, DoorClosed, DoorOpen, TriangleAlert, type LucideIcon } from 'lucide-react';
import { GATE_STATE_LABELS, isGateMoving, type GateState } from '@agua/shared';
import { cn } from '@/lib/utils';

const ICONS: Record<GateState, LucideIcon> = {
  abierta: DoorOpen,
  cerrada: DoorClosed,
  abriendo: ArrowUpFromLine,
  cerrando: ArrowDownToLine,
  falla: TriangleAlert,
};

/** A gate's state as icon + word; moving states animate gently (not with reduced motion). */
export function GateStateView({ state, className, size = 'md' }: { state: GateState | null; className?: string; size?: 'md' | 'lg' }) {
  const Icon = state ? ICONS[state] : CircleHelp;
  const moving = isGateMoving(state);
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold', size === 'lg' ? 'text-2xl' : 'text-base', className)}>
      <Icon
        aria-hidden="true"
        className={cn(size === 'lg' ? 'size-7' : 'size-5', state === 'falla' ? 'text-off-fg' : 'text-muted-foreground', moving && 'animate-pulse motion-reduce:animate-none')}
      />
      {state ? GATE_STATE_LABELS[state] : 'Sin datos'}
    </span>
  );
}

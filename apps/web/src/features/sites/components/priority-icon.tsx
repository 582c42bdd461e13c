import { CircleAlert, Info, OctagonAlert, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { AlarmPriority } from '@agua/shared';

/** The alarm badges' shape per priority (alarm-badges.tsx), so that colour is never the only cue. */
const ICONS: Record<AlarmPriority, LucideIcon> = { 1: OctagonAlert, 2: TriangleAlert, 3: CircleAlert, 4: Info };

export function PriorityIcon({ priority, className }: { priority: AlarmPriority; className?: string }) {
  const Icon = ICONS[priority] ?? Info;
  return <Icon aria-hidden="true" className={className} />;
}

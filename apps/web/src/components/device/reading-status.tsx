import { READING_STATUS_LABELS, statusColor, type ReadingStatus } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { StatusDot } from './status-dot';

const TONES = { green: 'ok', yellow: 'warn', red: 'crit', gray: 'off' } as const;

/** A reading's status as dot + word (Normal, Advertencia, Crítico, Falla). */
export function ReadingStatusBadge({ status, className }: { status: ReadingStatus; className?: string }) {
  return (
    <Badge tone={TONES[statusColor(status)]} className={className}>
      <StatusDot status={status} className="size-2" pulse />
      {READING_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

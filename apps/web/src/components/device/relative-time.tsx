import { useNow } from '@/hooks/use-now';
import { formatDateTime, formatRelative } from '@/lib/format';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';

/** 'hace 3 s', ticking every second, with the absolute date on hover/focus. */
export function RelativeTime({ value, className }: { value: string | null | undefined; className?: string }) {
  const now = useNow();
  if (!value) return <span className={className}>—</span>;
  const absolute = formatDateTime(value);
  return (
    <Tooltip content={absolute}>
      <time dateTime={value} className={cn('tabular-nums underline decoration-dotted decoration-muted-foreground/40 underline-offset-2', className)}>
        {formatRelative(value, now)}
      </time>
    </Tooltip>
  );
}

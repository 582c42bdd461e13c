import { statusColor, type StatusColor } from '@agua/shared';
import { cn } from '@/lib/utils';

const DOT_CLASSES: Record<StatusColor, string> = {
  green: 'bg-ok',
  yellow: 'bg-warn',
  red: 'bg-crit',
  gray: 'bg-off',
};

/** The seed's coloured dot; decorative, so always paired with a word by the caller. */
export function StatusDot({ status, className, pulse = false }: { status: string | null | undefined; className?: string; pulse?: boolean }) {
  const color = statusColor(status);
  return (
    <span aria-hidden="true" className={cn('relative inline-flex size-2.5 shrink-0 rounded-full', DOT_CLASSES[color], className)}>
      {pulse && color === 'red' ? (
        <span className="absolute inset-0 animate-ping rounded-full bg-crit opacity-60 motion-reduce:hidden" />
      ) : null}
    </span>
  );
}

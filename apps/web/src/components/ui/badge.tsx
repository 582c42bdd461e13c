import type { ComponentProps } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@/lib/utils';

// State tones use a tinted background with a darker (light theme) or lighter (dark theme) text
// tone, which keeps AA contrast; the colour never stands alone (badges always carry a word).
export const badgeVariants = cva(
  'inline-flex w-fit shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md border px-2 py-0.5 text-xs font-medium [&>svg]:size-3.5',
  {
    variants: {
      tone: {
        neutral: 'border-border bg-muted text-foreground',
        outline: 'border-border text-muted-foreground',
        primary: 'border-primary/25 bg-primary/10 text-primary',
        ok: 'border-ok/30 bg-ok/12 text-ok-fg',
        warn: 'border-warn/40 bg-warn/15 text-warn-fg',
        crit: 'border-crit/30 bg-crit/12 text-crit-fg',
        off: 'border-off/30 bg-off/12 text-off-fg',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export interface BadgeProps extends ComponentProps<'span'>, VariantProps<typeof badgeVariants> {}

export function Badge({ className, tone, ...props }: BadgeProps) {
  return <span data-slot="badge" className={cn(badgeVariants({ tone }), className)} {...props} />;
}

import type { ReactNode } from 'react';
import { ArrowDownToLine, ArrowUpFromLine } from 'lucide-react';
import type { AlarmPriority, Synoptic, SynopticItem } from '@agua/shared';
import { PRIORITY_COLORS } from '@/features/alarms/components/alarm-badges';
import { cn } from '@/lib/utils';
import { PriorityIcon } from './priority-icon';
import { ageLine, type ItemView } from '../utils/synoptic-item';

/** The alarm colours of alarm-badges.tsx as strokes: an alarmed symbol is outlined in its priority's colour. */
export const PRIORITY_STROKES: Record<AlarmPriority, string> = { 1: 'stroke-red-600', 2: 'stroke-orange-500', 3: 'stroke-yellow-400', 4: 'stroke-violet-600' };

/** The drawing's background: the grid (20 units, every fifth line stronger) or the uploaded SVG as an image, which cannot run script. */
export function SynopticBackdrop({ synoptic, idPrefix }: { synoptic: Pick<Synoptic, 'width' | 'height' | 'background'>; idPrefix: string }) {
  if (synoptic.background.kind === 'svg') {
    return (
      <>
        <rect width={synoptic.width} height={synoptic.height} className="fill-card" />
        <image
          href={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(synoptic.background.svg)}`}
          width={synoptic.width}
          height={synoptic.height}
          preserveAspectRatio="xMidYMid meet"
          // A plan drawn on white reads as one on black in the dark theme (greys invert, hues stay).
          className="dark:invert dark:hue-rotate-180"
          data-testid="synoptic-background-svg"
        />
      </>
    );
  }
  return (
    <>
      <defs>
        <pattern id={`${idPrefix}-grid`} width="20" height="20" patternUnits="userSpaceOnUse">
          <path d="M 20 0 L 0 0 0 20" fill="none" className="stroke-border" strokeWidth="1" />
        </pattern>
        <pattern id={`${idPrefix}-grid5`} width="100" height="100" patternUnits="userSpaceOnUse">
          <rect width="100" height="100" fill={`url(#${idPrefix}-grid)`} />
          <path d="M 100 0 L 0 0 0 100" fill="none" className="stroke-input" strokeWidth="1.5" />
        </pattern>
      </defs>
      <rect width={synoptic.width} height={synoptic.height} className="fill-card" />
      <rect width={synoptic.width} height={synoptic.height} fill={`url(#${idPrefix}-grid5)`} data-testid="synoptic-background-grid" />
    </>
  );
}

function rotate(item: SynopticItem): string | undefined {
  return item.rotation ? `rotate(${item.rotation} ${item.x + item.w / 2} ${item.y + item.h / 2})` : undefined;
}

/** A vessel to scale: its walls, the level's fill (grey when normal), the warning and critical marks, the crest. */
function TankShape({ item, view }: { item: SynopticItem; view: ItemView }) {
  const { x, y, w, h } = item;
  const level = view.level;
  const at = (pct: number) => y + h - (Math.min(100, Math.max(0, pct)) / 100) * h;
  const fill = level?.status === 'critical' ? 'fill-crit/55' : level?.status === 'warning' ? 'fill-warn/60' : 'fill-muted-foreground/35';
  return (
    <g>
      <rect x={x} y={y} width={w} height={h} rx="6" className={'fill-muted/60 stroke-muted-foreground'} strokeWidth="2" strokeDasharray={view.stale ? '6 4' : undefined} />
      {level?.percent != null ? <rect data-testid={`synoptic-fill-${item.id}`} data-percent={Math.round(level.percent * 10) / 10} x={x + 2} y={at(level.percent)} width={w - 4} height={y + h - 2 - at(level.percent) > 0 ? y + h - 2 - at(level.percent) : 0} className={fill} /> : null}
      {level ? (
        <>
          <line x1={x} x2={x + w} y1={at(level.warningPct)} y2={at(level.warningPct)} className="stroke-muted-foreground" strokeWidth="1.5" strokeDasharray="6 4" />
          <line x1={x} x2={x + w} y1={at(level.criticalPct)} y2={at(level.criticalPct)} className="stroke-foreground" strokeWidth="1.5" strokeDasharray="2 3" />
          {level.crestPct !== null ? <line x1={x - 6} x2={x + w + 6} y1={at(level.crestPct)} y2={at(level.crestPct)} className="stroke-foreground" strokeWidth="2.5" /> : null}
        </>
      ) : null}
    </g>
  );
}

/** A gate across its channel: the blade up (open), down (closed) or half-way while it travels. */
function GateShape({ item, view }: { item: SynopticItem; view: ItemView }) {
  const { x, y, w, h } = item;
  const state = view.gate?.state ?? null;
  const cy = y + h * 0.62;
  const gap = Math.min(h * 0.3, 40);
  const bladeW = Math.max(8, Math.min(w * 0.12, 18));
  const bx = x + w / 2 - bladeW / 2;
  const top = cy - gap / 2;
  const bladeY = state === 'abierta' ? top - gap * 0.9 : state === 'cerrada' ? top : top - gap * 0.45;
  const fault = state === 'falla';
  return (
    <g transform={rotate(item)}>
      <line x1={x} x2={x + w} y1={top} y2={top} className="stroke-muted-foreground" strokeWidth="3" />
      <line x1={x} x2={x + w} y1={top + gap} y2={top + gap} className="stroke-muted-foreground" strokeWidth="3" />
      <rect
        x={bx}
        y={bladeY}
        width={bladeW}
        height={gap}
        rx="2"
        className={cn(fault ? 'fill-crit/60 stroke-crit' : 'fill-muted-foreground/50 stroke-foreground', view.gate?.moving && 'animate-pulse motion-reduce:animate-none')}
        strokeWidth="2"
        strokeDasharray={view.stale ? '4 3' : undefined}
      />
    </g>
  );
}

function ChannelShape({ item }: { item: SynopticItem }) {
  const { x, y, w, h } = item;
  const horizontal = w >= h;
  const thick = Math.max(6, Math.min(horizontal ? h : w, 24));
  return (
    <g transform={rotate(item)}>
      {horizontal ? (
        <line x1={x + thick / 2} x2={x + w - thick / 2} y1={y + h / 2} y2={y + h / 2} className="stroke-muted-foreground/50" strokeWidth={thick} strokeLinecap="round" />
      ) : (
        <line x1={x + w / 2} x2={x + w / 2} y1={y + thick / 2} y2={y + h - thick / 2} className="stroke-muted-foreground/50" strokeWidth={thick} strokeLinecap="round" />
      )}
    </g>
  );
}

/** The shape of an item, without its texts. */
export function SymbolShape({ item, view }: { item: SynopticItem; view: ItemView }) {
  switch (item.symbol) {
    case 'tank':
      return <TankShape item={item} view={view} />;
    case 'gate':
      return <GateShape item={item} view={view} />;
    case 'channel':
      return <ChannelShape item={item} />;
    default:
      return null;
  }
}

/** An alarmed device's symbol is outlined in its priority's colour (with the badge's shape and words in its plate). */
export function AlarmOutline({ item, view }: { item: SynopticItem; view: ItemView }) {
  if (!view.alarm) return null;
  return <rect x={item.x - 6} y={item.y - 6} width={item.w + 12} height={item.h + 12} rx="10" fill="none" className={PRIORITY_STROKES[view.alarm.priority]} strokeWidth="5" />;
}

/** The alarm as the badges write it: colour, icon and words. */
export function ItemAlarmBadge({ alarm, className }: { alarm: NonNullable<ItemView['alarm']>; className?: string }) {
  return (
    <span data-priority={alarm.priority} className={cn('inline-flex w-fit items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-semibold', PRIORITY_COLORS[alarm.priority], className)}>
      <PriorityIcon priority={alarm.priority} className="size-3.5 shrink-0" />
      {alarm.text}
    </span>
  );
}

/** A separator only the accessible name hears: inline (an absolutely placed one would add spaces around it). */
function Sep({ text }: { text: string }) {
  return <span className="text-[0px]">{text}</span>;
}

/**
 * The texts of an item: its title, value lines, age or why it is greyed, and its alarm. Hidden
 * separators make the text read as the symbol's accessible name does ('Título: 3,42 m · 68 %, hace
 * 5 s'), so that a button named by its content says the same as one named by describeItem.
 */
export function ItemTexts({ view, compact = false }: { view: ItemView; compact?: boolean }): ReactNode {
  const Moving = view.gate?.moving ? (view.gate.state === 'abriendo' ? ArrowUpFromLine : ArrowDownToLine) : null;
  const age = ageLine(view);
  const parts = [...view.lines.map((line, i) => ({ key: `l${i}`, kind: i === 0 ? 'first' : 'line', text: line })), ...(age ? [{ key: 'age', kind: 'age', text: age }] : [])];
  return (
    <>
      <span className={cn('block leading-tight font-semibold break-words', compact ? 'text-sm' : 'text-[13px]')}>
        {view.title}
        {parts.length > 0 || view.alarm ? <Sep text=": " /> : null}
      </span>
      {parts.map((part, i) => {
        const sep = i < parts.length - 1 || view.alarm ? <Sep text=", " /> : null;
        if (part.kind === 'age') {
          return (
            <span key={part.key} className={cn('block leading-tight text-muted-foreground', compact ? 'text-xs' : 'text-[11px]')}>
              {part.text}
              {sep}
            </span>
          );
        }
        return (
          <span key={part.key} className={cn('flex items-center gap-1 leading-tight tabular-nums', part.kind === 'first' ? 'font-medium' : 'text-muted-foreground', view.stale && 'text-muted-foreground', compact ? 'text-sm' : 'text-xs')}>
            {part.kind === 'first' && Moving ? <Moving aria-hidden="true" className="size-3.5 shrink-0" /> : null}
            <span>
              {part.text}
              {sep}
            </span>
          </span>
        );
      })}
      {view.alarm ? <ItemAlarmBadge alarm={view.alarm} className="mt-0.5" /> : null}
    </>
  );
}

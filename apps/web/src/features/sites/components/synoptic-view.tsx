import { useId, type KeyboardEvent } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { Alarm, Device, Synoptic, SynopticItem } from '@agua/shared';
import { geometryQueryOptions } from '@/features/water/api/get-geometry';
import { useNow } from '@/hooks/use-now';
import { useMediaQuery } from '@/hooks/use-media-query';
import { cn } from '@/lib/utils';
import { AlarmOutline, ItemTexts, SymbolShape, SynopticBackdrop } from './synoptic-symbols';
import { describeItem, readingOrder, type ItemView } from '../utils/synoptic-item';

/** Each tank's crest (its geometry's, when it has one): the drawing marks it. */
function useCrests(items: readonly SynopticItem[], devices: readonly Device[]): Map<string, number> {
  const ids = [...new Set(items.filter((i) => i.symbol === 'tank' && i.deviceId).map((i) => i.deviceId!))].filter((id) => devices.some((d) => d.id === id));
  const results = useQueries({ queries: ids.map((id) => ({ ...geometryQueryOptions(id), retry: false, staleTime: 5 * 60_000 })) });
  const crests = new Map<string, number>();
  results.forEach((r, i) => {
    const crest = r.data?.crestLevelM;
    if (typeof crest === 'number') crests.set(ids[i]!, crest);
  });
  return crests;
}

export function useItemViews(synoptic: Synoptic, devices: readonly Device[], alarms: readonly Alarm[]): Map<string, ItemView> {
  const now = useNow();
  const crests = useCrests(synoptic.items, devices);
  const byId = new Map(devices.map((d) => [d.id, d]));
  return new Map(synoptic.items.map((item) => [item.id, describeItem(item, item.deviceId ? (byId.get(item.deviceId) ?? null) : null, alarms, now, item.deviceId ? (crests.get(item.deviceId) ?? null) : null)]));
}

function onActivate(open: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
}

/** Room kept for a symbol's texts under it (or over it, near the drawing's foot). */
const PLATE_H = 120;
const PLATE_MIN_W = 180;

/**
 * The texts of an item inside the drawing, upright whatever the rotation: a label's in its box; a
 * device's under its symbol (over it when the drawing ends first), so that they never hide the
 * level and its marks.
 */
function Plate({ item, view, height }: { item: SynopticItem; view: ItemView; height: number }) {
  if (item.symbol === 'channel' && !view.device && !item.label) return null;
  if (item.symbol === 'label') {
    return (
      <foreignObject x={item.x} y={item.y} width={item.w} height={item.h} className="pointer-events-none" aria-hidden="true">
        <div className="flex h-full items-center justify-center">
          <span className="text-center text-base leading-tight font-semibold break-words text-foreground">{item.label}</span>
        </div>
      </foreignObject>
    );
  }
  const w = Math.max(item.w, PLATE_MIN_W);
  const below = item.y + item.h + 6 + PLATE_H <= height;
  const y = below ? item.y + item.h + 6 : Math.max(0, item.y - 6 - PLATE_H);
  return (
    // What the symbol's accessible name (its aria-label) says, drawn: hidden from screen readers, not said twice.
    <foreignObject x={item.x + item.w / 2 - w / 2} y={y} width={w} height={PLATE_H} className="pointer-events-none" aria-hidden="true">
      <div className={cn('flex h-full flex-col items-center', below ? 'justify-start' : 'justify-end')}>
        <span className={cn('grid max-w-full justify-items-center gap-0.5 rounded-md border bg-card/95 px-2 py-1 text-center text-card-foreground shadow-xs', view.stale && 'border-dashed')}>
          <ItemTexts view={view} />
        </span>
      </div>
    </foreignObject>
  );
}

/** The drawing: the site's coordinate space scaled to the width (viewBox); device symbols are buttons. */
function SynopticDrawing({ synoptic, views, onOpenDevice }: { synoptic: Synoptic; views: Map<string, ItemView>; onOpenDevice: (device: Device) => void }) {
  const id = useId().replace(/:/g, '');
  return (
    <svg
      data-testid="synoptic-drawing"
      viewBox={`0 0 ${synoptic.width} ${synoptic.height}`}
      className="block h-auto max-h-[calc(100dvh-12rem)] w-full rounded-xl border bg-card"
      role="group"
      aria-label="Sinóptico del sitio"
    >
      <SynopticBackdrop synoptic={synoptic} idPrefix={id} />
      {synoptic.items.map((item) => {
        const view = views.get(item.id)!;
        const device = view.device;
        const body = (
          <>
            <AlarmOutline item={item} view={view} />
            <SymbolShape item={item} view={view} />
            <Plate item={item} view={view} height={synoptic.height} />
          </>
        );
        if (!device) {
          return (
            <g key={item.id} data-testid={`synoptic-item-${item.id}`} data-deleted={view.deleted || undefined} aria-label={view.deleted ? view.accessibleName : undefined} role={view.deleted ? 'img' : undefined}>
              {body}
            </g>
          );
        }
        return (
          <g
            key={item.id}
            role="button"
            tabIndex={0}
            aria-label={view.accessibleName}
            data-testid={`synoptic-item-${item.id}`}
            data-device-id={device.id}
            data-alarm-priority={view.alarm?.priority ?? 'none'}
            className="group cursor-pointer outline-none"
            onClick={() => onOpenDevice(device)}
            onKeyDown={onActivate(() => onOpenDevice(device))}
          >
            <rect x={item.x - 10} y={item.y - 10} width={item.w + 20} height={item.h + 20} rx="12" className="fill-transparent stroke-transparent group-hover:fill-accent/40 group-focus-visible:stroke-ring" strokeWidth="3" />
            {body}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * On a phone: the same objects as an ordered list, top to bottom, with the same texts and buttons
 * (each button is named by what it shows: title, value, age, alarm).
 */
function SynopticList({ synoptic, views, onOpenDevice }: { synoptic: Synoptic; views: Map<string, ItemView>; onOpenDevice: (device: Device) => void }) {
  return (
    <ol data-testid="synoptic-list" aria-label="Sinóptico del sitio" className="grid gap-2">
      {readingOrder(synoptic.items).map((item) => {
        const view = views.get(item.id)!;
        const device = view.device;
        const frame = cn('grid w-full gap-0.5 rounded-lg border bg-card px-3 py-2.5 text-left', view.alarm && 'border-l-4 border-l-foreground', view.stale && 'border-dashed');
        if (item.symbol === 'label' || (!device && !view.deleted)) {
          if (!item.label) return null;
          return (
            <li key={item.id} data-testid={`synoptic-item-${item.id}`} className="px-1 py-1 text-sm font-semibold">
              {item.symbol === 'channel' ? `Canal · ${item.label}` : item.label}
            </li>
          );
        }
        return (
          <li key={item.id}>
            {device ? (
              <button type="button" data-testid={`synoptic-item-${item.id}`} data-device-id={device.id} data-alarm-priority={view.alarm?.priority ?? 'none'} className={cn(frame, 'min-h-11 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring')} onClick={() => onOpenDevice(device)}>
                <ItemTexts view={view} compact />
              </button>
            ) : (
              <div data-testid={`synoptic-item-${item.id}`} data-deleted className={frame}>
                <ItemTexts view={view} compact />
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** A site's synoptic, live: the drawing from 640 px of screen, the ordered list below. */
export function SynopticView({ synoptic, devices, alarms, onOpenDevice }: { synoptic: Synoptic; devices: readonly Device[]; alarms: readonly Alarm[]; onOpenDevice: (device: Device) => void }) {
  const phone = useMediaQuery('(max-width: 639px)');
  const views = useItemViews(synoptic, devices, alarms);
  return phone ? <SynopticList synoptic={synoptic} views={views} onOpenDevice={onOpenDevice} /> : <SynopticDrawing synoptic={synoptic} views={views} onOpenDevice={onOpenDevice} />;
}

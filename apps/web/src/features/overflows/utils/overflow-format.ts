/**
 * How the 'Desbordamientos' screen prints an event's figures: durations in days, hours, minutes
 * and seconds ('2 h 10 min', '45 s'), volumes as the water figures do, '—' where a figure is
 * unknown (never 0 m³ for a volume nobody measured).
 */
import type { OverflowEvent } from '@agua/shared';
import { formatVolume } from '@/lib/water-format';

/** A span of time, to the second under a minute and to the minute above: '45 s', '12 min', '2 h 10 min', '1 d 3 h'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** The event's volume with how it was found, or '—' without a weir. */
export function formatOverflowVolume(event: Pick<OverflowEvent, 'volumeM3' | 'method'>): string {
  return event.volumeM3 === null ? '—' : `${formatVolume(event.volumeM3)}${event.method === 'weir' ? ' (vertedero)' : ''}`;
}

/** A total volume: '—' when no event had one. */
export function formatTotalVolume(m3: number | null): string {
  return m3 === null ? '—' : formatVolume(m3);
}

/** The first and last instant of a local calendar year, as the API's ISO range. */
export function yearRange(now = new Date()): { from: string; to: string } {
  return { from: new Date(now.getFullYear(), 0, 1).toISOString(), to: new Date(now.getFullYear() + 1, 0, 1).toISOString() };
}

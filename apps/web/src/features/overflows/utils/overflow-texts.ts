/**
 * What the 'Desbordamientos' screen prints of an event and of the counts (docs/water.md
 * "Overflow events"): an unknown volume is '—', never 0 m³.
 */
import type { OverflowEvent, OverflowStats } from '@agua/shared';
import { formatDateTime } from '@/lib/format';
import { formatVolume } from '@/lib/water-format';

/** '1.005,3 m³', or '—' when nothing measured it (no weir). */
export function volumeText(volumeM3: number | null): string {
  return volumeM3 === null || !Number.isFinite(volumeM3) ? '—' : formatVolume(volumeM3);
}

/** How the volume was found: over the weir, or not at all. */
export function methodText(method: OverflowEvent['method']): string {
  return method === 'weir' ? 'por vertedero' : 'sin vertedero';
}

/** 'Sí — 22 nov 2026, 7:38:26' once the authority was told, else 'No'. */
export function notifiedText(notifiedAt: string | null): string {
  return notifiedAt ? `Sí — ${formatDateTime(notifiedAt)}` : 'No';
}

/** The total volume of the counts: '—' when no event of the filter has one. */
export function totalVolumeText(stats: Pick<OverflowStats, 'totalVolumeM3'>): string {
  return volumeText(stats.totalVolumeM3);
}

/** The local calendar year of `now` as the API's range (`to` exclusive), for the year's 12/24 count. */
export function calendarYear(now: Date): { year: number; from: string; to: string } {
  const year = now.getFullYear();
  return { year, from: new Date(year, 0, 1).toISOString(), to: new Date(year + 1, 0, 1).toISOString() };
}

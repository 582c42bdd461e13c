/**
 * The water figures as the screens print them (docs/water.md "Net flow and forecasts"): volume,
 * fill, net flow and the time to overflow or to empty. One home, so the cards, the panel and the
 * charts say the same thing. Numbers follow the browser's Spanish locale (lib/format.ts).
 */
import type { WaterAnalytics } from '@agua/shared';
import { LOCALE } from './format';

const oneDecimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
// Spanish leaves four-digit numbers ungrouped by default ('1005,3'); volumes always group ('1.005,3').
const volumeFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 'always' });
const whole = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
/** The true minus sign (U+2212): a hyphen reads as a dash in a number. */
const MINUS = '\u2212';

/** A volume with one decimal, thousands grouped, e.g. '123,4 m³', '1.005,3 m³'. */
export function formatVolume(m3: number): string {
  return `${volumeFormat.format(m3)} m³`;
}

/** How full, in whole percent of the reference volume, e.g. '57 %'. */
export function formatFill(pct: number): string {
  return `${whole.format(pct)} %`;
}

/** A rate with one decimal and its sign, e.g. '+18,2 m³/h', '−12,0 m³/h'. */
export function formatSignedFlow(m3h: number): string {
  const sign = m3h > 0 ? '+' : m3h < 0 ? MINUS : '';
  return `${sign}${oneDecimal.format(Math.abs(m3h))} m³/h`;
}

/**
 * The net flow in words: 'Entrada neta +18,2 m³/h', 'Salida neta −12,0 m³/h', 'Estable' (the
 * server reports 0 when the slope is under 1 % of the full volume per hour); null when unknown.
 */
export function formatNetFlow(m3h: number | null): string | null {
  if (m3h === null || !Number.isFinite(m3h)) return null;
  if (m3h === 0) return 'Estable';
  return `${m3h > 0 ? 'Entrada neta' : 'Salida neta'} ${formatSignedFlow(m3h)}`;
}

/**
 * A span from a minute on, rounded to the unit shown last: '12 min' under an hour, '2 h 10 min'
 * under a day, '1 d 3 h' from a day on.
 */
function spanText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
  const hours = Math.round(seconds / 3600);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  return h === 0 ? `${whole.format(d)} d` : `${whole.format(d)} d ${h} h`;
}

/**
 * A forecast's duration, always approximate: '≈ 12 min' under an hour, '≈ 2 h 10 min' under a
 * day, '≈ 1 d 3 h' from a day on; '< 1 min' under a minute. Rounded to the unit shown last.
 */
export function formatEta(seconds: number): string {
  const s = Math.max(0, seconds);
  return s < 60 ? '< 1 min' : `≈ ${spanText(s)}`;
}

/**
 * A measured duration (an overflow event's): '45 s' under a minute, then as the forecasts write
 * it but without '≈' — '12 min', '2 h 10 min', '1 d 3 h'.
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, seconds);
  return s < 60 ? `${Math.round(s)} s` : spanText(s);
}

export type WaterForecast = { kind: 'overflow' | 'empty'; text: string };

/**
 * 'Desborde en ≈ 2 h 10 min' while filling, 'Vacío en ≈ 5 h 3 min' while emptying; null when the
 * server gives no time (stable, no flow, stale data): the screen never makes a forecast up.
 */
export function formatForecast(a: Pick<WaterAnalytics, 'timeToOverflowS' | 'timeToEmptyS'>): WaterForecast | null {
  if (a.timeToOverflowS !== null && Number.isFinite(a.timeToOverflowS)) {
    return { kind: 'overflow', text: a.timeToOverflowS <= 0 ? 'Nivel de desborde alcanzado' : `Desborde en ${formatEta(a.timeToOverflowS)}` };
  }
  if (a.timeToEmptyS !== null && Number.isFinite(a.timeToEmptyS)) {
    return { kind: 'empty', text: a.timeToEmptyS <= 0 ? 'Vacío' : `Vacío en ${formatEta(a.timeToEmptyS)}` };
  }
  return null;
}

export interface WaterFigureTexts {
  /** '123,4 m³', or null when the volume is not to be shown (stale or none). */
  volume: string | null;
  /** '57 %' of the reference volume (the crest's, else maxLevel's). */
  fill: string | null;
  /** Whether the volume was clamped to the shape's range ('extrapolated'). */
  extrapolated: boolean;
  flow: string | null;
  /** The flow's direction, for an icon: 'in', 'out', 'stable'; null when there is no flow. */
  direction: 'in' | 'out' | 'stable' | null;
  forecast: WaterForecast | null;
}

/**
 * Whether figures are too old to stand for now: their newest reading (`at`) is older than the
 * device's offline timeout by this browser's clock, or the device is offline.
 */
export function areFiguresStale(a: Pick<WaterAnalytics, 'at'>, online: boolean, offlineAfterMs: number, now: number): boolean {
  const at = Date.parse(a.at);
  return !online || Number.isNaN(at) || now - at > offlineAfterMs;
}

/**
 * Everything a screen prints of a Device's `analytics`. `stale`: the newest reading is older than
 * the device's offline timeout by this browser's clock (the live link may have stopped before the
 * server said so) — the volume is not shown as current, and neither flow nor forecast at all.
 */
export function waterFigureTexts(a: WaterAnalytics | null, stale: boolean): WaterFigureTexts | null {
  if (!a) return null;
  if (stale) return { volume: null, fill: null, extrapolated: false, flow: null, direction: null, forecast: null };
  const flow = a.netFlowM3h;
  return {
    volume: formatVolume(a.volumeM3),
    fill: formatFill(a.fillPct),
    extrapolated: a.quality === 'extrapolated',
    flow: formatNetFlow(flow),
    direction: flow === null || !Number.isFinite(flow) ? null : flow > 0 ? 'in' : flow < 0 ? 'out' : 'stable',
    forecast: formatForecast(a),
  };
}

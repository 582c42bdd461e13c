/** The bucket of the volume trend (GET /devices/{id}/analytics?step), chosen by the range shown. */

export type AnalyticsStep = '1m' | '1h' | '1d';

export const ANALYTICS_STEP_MS: Record<AnalyticsStep, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 };

/**
 * At most this many buckets on the curve: about a wide chart's pixels. The server answers up to
 * 10,000 (docs/api.md); a finer step would only draw several points per pixel.
 */
export const MAX_VOLUME_POINTS = 2000;

/**
 * The finest step that keeps the range within MAX_VOLUME_POINTS buckets: minutes up to 33 h (the
 * last hour and the last day), hours up to 83 days (7 and 30 days), days beyond.
 */
export function analyticsStep(spanMs: number): AnalyticsStep {
  for (const step of ['1m', '1h'] as const) if (spanMs / ANALYTICS_STEP_MS[step] <= MAX_VOLUME_POINTS) return step;
  return '1d';
}

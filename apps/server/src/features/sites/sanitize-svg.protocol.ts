import type { SanitizedSvg } from './sanitize-svg';

/** Messages between the main thread and the SVG sanitiser's thread (sanitize-svg.worker.ts). */
export type SanitizeRequest = { id: number; svg: string };
export type SanitizeResponse =
  | { id: number; ok: true; result: SanitizedSvg }
  /** A refusal of the drawing (422 with its reason), or a failure of the sanitiser itself. */
  | { id: number; ok: false; invalid: { reason: string } | null; error: string };

/**
 * Sites and their synoptic drawings (docs/sites.md): the limits both the server and the editor
 * check, so that what the editor lets a person draw is what the server stores.
 */
export const SITE_LIMITS = {
  nameMax: 100,
  addressMax: 300,
} as const;

export const SYNOPTIC_SYMBOLS = ['tank', 'gate', 'channel', 'label'] as const;
export type SynopticSymbol = (typeof SYNOPTIC_SYMBOLS)[number];

export const SYNOPTIC_ROTATIONS = [0, 90, 180, 270] as const;
export type SynopticRotation = (typeof SYNOPTIC_ROTATIONS)[number];

export const SYNOPTIC_LIMITS = {
  /** The drawing's coordinate space: integers in this range, both sides. */
  sizeMin: 200,
  sizeMax: 10_000,
  defaultWidth: 1200,
  defaultHeight: 800,
  itemsMax: 200,
  itemIdMax: 64,
  labelMax: 100,
  /** An SVG background larger than this (UTF-8 bytes) is refused: 413 SVG_TOO_LARGE. */
  svgMaxBytes: 2 * 1024 * 1024,
} as const;

/**
 * Which device type a symbol shows: a tank a level sensor, a gate a gate (both required); a
 * channel may show either or none; a label shows none.
 */
export const SYNOPTIC_SYMBOL_DEVICE = {
  tank: { required: true, type: 'level_sensor' },
  gate: { required: true, type: 'motorized_gate' },
  channel: { required: false, type: null },
  label: { required: false, type: 'none' },
} as const satisfies Record<SynopticSymbol, { required: boolean; type: 'level_sensor' | 'motorized_gate' | 'none' | null }>;

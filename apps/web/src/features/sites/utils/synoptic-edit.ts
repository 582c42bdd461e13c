import { SYNOPTIC_LIMITS, type Device, type SynopticBackground, type SynopticItem, type SynopticRotation, type SynopticSymbol } from '@agua/shared';

/** The editor's grid: items snap to it, the arrow keys move by one step. */
export const GRID = 20;

export interface Draft {
  width: number;
  height: number;
  background: SynopticBackground;
  items: SynopticItem[];
}

export const SYMBOL_LABELS: Record<SynopticSymbol, string> = { tank: 'Tanque', gate: 'Compuerta', channel: 'Canal', label: 'Etiqueta' };

/** A new item's size, by symbol. */
export const DEFAULT_SIZES: Record<SynopticSymbol, { w: number; h: number }> = {
  tank: { w: 160, h: 200 },
  gate: { w: 160, h: 120 },
  channel: { w: 240, h: 40 },
  label: { w: 200, h: 40 },
};

export function snap(value: number): number {
  return Math.round(value / GRID) * GRID;
}

/** The item kept inside the drawing, at least one grid step in each direction. */
export function clampItem(item: SynopticItem, width: number, height: number): SynopticItem {
  const w = Math.max(GRID, Math.min(item.w, width));
  const h = Math.max(GRID, Math.min(item.h, height));
  const x = Math.max(0, Math.min(item.x, width - w));
  const y = Math.max(0, Math.min(item.y, height - h));
  return { ...item, x, y, w, h };
}

export function moveItem(item: SynopticItem, dx: number, dy: number, draft: Pick<Draft, 'width' | 'height'>): SynopticItem {
  return clampItem({ ...item, x: snap(item.x + dx), y: snap(item.y + dy) }, draft.width, draft.height);
}

export function resizeItem(item: SynopticItem, dw: number, dh: number, draft: Pick<Draft, 'width' | 'height'>): SynopticItem {
  return clampItem({ ...item, w: snap(item.w + dw), h: snap(item.h + dh) }, draft.width, draft.height);
}

/** Which symbols may show a device (shared SYNOPTIC_SYMBOL_DEVICE): a level sensor a tank or a channel, a gate a gate or a channel. */
export function symbolsFor(device: Pick<Device, 'type'> | null): SynopticSymbol[] {
  if (!device) return ['channel', 'label'];
  return device.type === 'level_sensor' ? ['tank', 'channel'] : ['gate', 'channel'];
}

export function symbolOfDevice(device: Pick<Device, 'type'>): SynopticSymbol {
  return device.type === 'level_sensor' ? 'tank' : 'gate';
}

let counter = 0;
export function newItemId(): string {
  counter += 1;
  return `it_${Date.now().toString(36)}_${counter.toString(36)}`;
}

function overlaps(a: Pick<SynopticItem, 'x' | 'y' | 'w' | 'h'>, b: Pick<SynopticItem, 'x' | 'y' | 'w' | 'h'>): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** A new item in the first free place of the grid (left to right, top to bottom), or at the top left. */
export function placeNew(symbol: SynopticSymbol, deviceId: string | null, label: string, draft: Draft): SynopticItem {
  const { w, h } = DEFAULT_SIZES[symbol];
  const base = { id: newItemId(), symbol, deviceId, label, rotation: 0 as SynopticRotation, w, h };
  for (let y = GRID * 2; y + h <= draft.height; y += GRID * 2) {
    for (let x = GRID * 2; x + w <= draft.width; x += GRID * 2) {
      const candidate = { ...base, x, y };
      if (!draft.items.some((i) => overlaps({ x: i.x - GRID, y: i.y - GRID, w: i.w + GRID * 2, h: i.h + GRID * 2 }, candidate))) return candidate;
    }
  }
  return clampItem({ ...base, x: 0, y: 0 }, draft.width, draft.height);
}

/** What the editor checks before a save (the server checks again, 422): a size within limits, every tank and gate with its device. */
export function draftProblems(draft: Draft, devices: readonly Pick<Device, 'id' | 'type'>[]): string[] {
  const problems: string[] = [];
  const inRange = (n: number) => Number.isInteger(n) && n >= SYNOPTIC_LIMITS.sizeMin && n <= SYNOPTIC_LIMITS.sizeMax;
  if (!inRange(draft.width) || !inRange(draft.height)) problems.push(`El tamaño del dibujo va de ${SYNOPTIC_LIMITS.sizeMin} a ${SYNOPTIC_LIMITS.sizeMax} unidades.`);
  if (draft.items.length > SYNOPTIC_LIMITS.itemsMax) problems.push(`Un sinóptico admite hasta ${SYNOPTIC_LIMITS.itemsMax} elementos.`);
  for (const item of draft.items) {
    const device = item.deviceId ? devices.find((d) => d.id === item.deviceId) : null;
    if ((item.symbol === 'tank' || item.symbol === 'gate') && !device) problems.push(`${SYMBOL_LABELS[item.symbol]} «${item.label || item.id}»: elija su dispositivo.`);
    else if (device && !symbolsFor(device).includes(item.symbol)) problems.push(`«${item.label || item.id}»: un ${SYMBOL_LABELS[item.symbol].toLowerCase()} no puede mostrar ese dispositivo.`);
    if (item.label.length > SYNOPTIC_LIMITS.labelMax) problems.push(`«${item.label.slice(0, 20)}…»: la etiqueta admite hasta ${SYNOPTIC_LIMITS.labelMax} caracteres.`);
  }
  return problems;
}

/** The UTF-8 size of an SVG, as the server counts it for its 2 MB limit. */
export function svgBytes(svg: string): number {
  return new TextEncoder().encode(svg).length;
}

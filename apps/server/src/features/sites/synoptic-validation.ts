import { SYNOPTIC_LIMITS, SYNOPTIC_ROTATIONS, SYNOPTIC_SYMBOL_DEVICE, type DeviceType, type SynopticItem, type SynopticRotation, type SynopticSave } from '@agua/shared';
import { unprocessable } from '../../lib/errors';

/** A device's type; undefined when unknown or retired (a drawing may not name it). */
export type DeviceTypeOf = (deviceId: string) => DeviceType | undefined;

const invalid = (field: string, reason: string) => unprocessable('SYNOPTIC_INVALID', { field, reason });

const DEVICE_TYPE_NAMES: Record<DeviceType, string> = { level_sensor: 'un sensor de nivel', motorized_gate: 'una compuerta' };

/**
 * Checks a drawing's size and items (docs/sites.md "Synoptic"): `422 SYNOPTIC_INVALID {field,
 * reason}`. Returns the items as stored (deviceId null when left out). The background is the
 * sanitiser's (sanitize-svg.ts).
 */
export function validSynopticItems(input: Pick<SynopticSave, 'width' | 'height' | 'items'>, typeOf: DeviceTypeOf): SynopticItem[] {
  const { width, height, items } = input;
  for (const [field, n] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(n) || n < SYNOPTIC_LIMITS.sizeMin || n > SYNOPTIC_LIMITS.sizeMax) {
      throw invalid(field, `Un número entero entre ${SYNOPTIC_LIMITS.sizeMin} y ${SYNOPTIC_LIMITS.sizeMax}.`);
    }
  }
  if (items.length > SYNOPTIC_LIMITS.itemsMax) throw invalid('items', `Como mucho ${SYNOPTIC_LIMITS.itemsMax} elementos.`);
  const ids = new Set<string>();
  return items.map((item, i) => {
    const at = `items[${i}]`;
    if (item.id.length < 1 || item.id.length > SYNOPTIC_LIMITS.itemIdMax) throw invalid(`${at}.id`, `Un identificador de 1 a ${SYNOPTIC_LIMITS.itemIdMax} caracteres.`);
    if (ids.has(item.id)) throw invalid(`${at}.id`, 'Identificador repetido.');
    ids.add(item.id);
    if (item.label.length > SYNOPTIC_LIMITS.labelMax) throw invalid(`${at}.label`, `Como mucho ${SYNOPTIC_LIMITS.labelMax} caracteres.`);
    if (!(SYNOPTIC_ROTATIONS as readonly number[]).includes(item.rotation)) throw invalid(`${at}.rotation`, 'Un giro de 0, 90, 180 o 270 grados.');
    assertInside(item, width, height, at);
    const deviceId = item.deviceId ?? null;
    assertDevice(item.symbol, deviceId, typeOf, at);
    return { id: item.id, symbol: item.symbol, deviceId, x: item.x, y: item.y, w: item.w, h: item.h, label: item.label, rotation: item.rotation as SynopticRotation };
  });
}

/** An item lies inside the drawing, with a size (its box before rotation). */
function assertInside(item: { x: number; y: number; w: number; h: number }, width: number, height: number, at: string): void {
  if (!(item.w > 0)) throw invalid(`${at}.w`, 'El ancho debe ser mayor que 0.');
  if (!(item.h > 0)) throw invalid(`${at}.h`, 'El alto debe ser mayor que 0.');
  if (!(item.x >= 0 && item.x + item.w <= width)) throw invalid(`${at}.x`, 'El elemento debe quedar dentro del dibujo.');
  if (!(item.y >= 0 && item.y + item.h <= height)) throw invalid(`${at}.y`, 'El elemento debe quedar dentro del dibujo.');
}

/** A tank shows a level sensor and a gate a gate (both required); a channel any device or none; a label none. */
function assertDevice(symbol: SynopticItem['symbol'], deviceId: string | null, typeOf: DeviceTypeOf, at: string): void {
  const rule = SYNOPTIC_SYMBOL_DEVICE[symbol];
  if (rule.type === 'none') {
    if (deviceId !== null) throw invalid(`${at}.deviceId`, 'Una etiqueta no muestra ningún dispositivo.');
    return;
  }
  if (deviceId === null) {
    if (rule.required) throw invalid(`${at}.deviceId`, `Este símbolo necesita ${DEVICE_TYPE_NAMES[rule.type]}.`);
    return;
  }
  const type = typeOf(deviceId);
  if (!type) throw invalid(`${at}.deviceId`, 'Dispositivo desconocido o retirado.');
  if (rule.type !== null && type !== rule.type) throw invalid(`${at}.deviceId`, `Este símbolo necesita ${DEVICE_TYPE_NAMES[rule.type]}.`);
}

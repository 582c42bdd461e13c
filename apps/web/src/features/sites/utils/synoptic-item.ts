import {
  ALARM_PRIORITY_LABELS,
  GATE_STATE_LABELS,
  isGateMoving,
  levelThresholdsOf,
  type Alarm,
  type AlarmPriority,
  type Device,
  type GateState,
  type ReadingStatus,
  type SynopticItem,
} from '@agua/shared';
import { commandProgressText } from '@/components/device/command-progress';
import { gateState, hasLiveReading, isReadingStale, levelConfig, offlineAfterMs } from '@/lib/device-helpers';
import { formatInteger, formatMeasure, formatRelative } from '@/lib/format';
import { areFiguresStale, waterFigureTexts } from '@/lib/water-format';
import { commandLabel } from '@agua/shared';

/** What one symbol of the synoptic shows, computed once for the drawing, the phone's list and the accessible name. */
export interface ItemView {
  title: string;
  /** The item names a device that no longer exists. */
  deleted: boolean;
  /** A device symbol: a button that opens the device's panel. */
  device: Device | null;
  /** The value lines under the title ('3,42 m · 68 %', 'Volumen 123,4 m³', 'Desborde en ≈ 12 min'). */
  lines: string[];
  /** 'hace 5 s' of the value shown; null without one. */
  age: string | null;
  /** The value is older than the device's offline timeout, or the device is offline: greyed, and said. */
  stale: boolean;
  /** Why it is greyed, in words ('Desconectado', 'Dato antiguo', 'Sin lectura'); null when current. */
  staleText: string | null;
  /** The worst of the device's open alarms: active ones first, else those waiting for an acknowledgement. */
  alarm: { priority: AlarmPriority; text: string } | null;
  level: { percent: number | null; status: ReadingStatus | null; warningPct: number; criticalPct: number; crestPct: number | null } | null;
  gate: { state: GateState | null; moving: boolean } | null;
  accessibleName: string;
}

const WAITING = new Set(['unack', 'rtn_unack']);
const ACTIVE = new Set(['unack', 'ack']);

function alarmOf(alarms: readonly Alarm[]): ItemView['alarm'] {
  const shown = alarms.filter((a) => ACTIVE.has(a.state) || WAITING.has(a.state));
  if (shown.length === 0) return null;
  const active = shown.filter((a) => ACTIVE.has(a.state));
  const pool = active.length > 0 ? active : shown;
  const priority = Math.min(...pool.map((a) => a.priority)) as AlarmPriority;
  return { priority, text: `${ALARM_PRIORITY_LABELS[priority]} · ${shown.length} ${shown.length === 1 ? 'alarma' : 'alarmas'}` };
}

/** The age line as shown: why the value is greyed, then its age ('Dato antiguo · hace 3 min'). */
export function ageLine(view: Pick<ItemView, 'staleText' | 'age'>): string | null {
  return [view.staleText, view.age].filter(Boolean).join(' · ') || null;
}

/**
 * The symbol's accessible name: what it shows, in the order shown ('Sensor Nivel Agua Limpia:
 * 3,42 m · 68 %, hace 5 s'), so that the name holds the visible text (WCAG 2.5.3).
 */
function named(view: ItemView): ItemView {
  const rest = [...view.lines, ageLine(view), view.alarm?.text].filter(Boolean).join(', ');
  return { ...view, accessibleName: rest ? `${view.title}: ${rest}` : view.title };
}

/**
 * One item as the screen says it. `crestM`: the crest of the tank's geometry when it has one. The
 * rules are the dashboard's (docs/operator-console.md "Unknown looks unknown"): a value older than
 * the device's offline timeout is not shown as now — the last value, greyed, with its age.
 */
export function describeItem(item: SynopticItem, device: Device | null, alarms: readonly Alarm[], now: number, crestM: number | null = null): ItemView {
  const base: ItemView = { title: item.label, deleted: false, device: null, lines: [], age: null, stale: false, staleText: null, alarm: null, level: null, gate: null, accessibleName: item.label };
  if (item.deviceId === null) return base;
  if (!device) {
    const title = item.label || item.deviceId;
    return { ...base, title, deleted: true, stale: true, staleText: 'Dispositivo eliminado', accessibleName: `${title}: Dispositivo eliminado` };
  }
  const title = item.label || device.name;
  const alarm = alarmOf(alarms.filter((a) => a.deviceId === device.id));
  const online = device.status === 'online';
  const view: ItemView = { ...base, title, device, alarm };

  if (device.type === 'level_sensor') {
    const { maxLevel, warningPct, criticalPct } = levelThresholdsOf(levelConfig(device) ?? {});
    const reading = hasLiveReading(device) && typeof device.reading?.value === 'number' ? device.reading : null;
    const lastValue = reading ? (reading.value as number) : null;
    const stale = reading ? isReadingStale(device, now) : true;
    const value = stale ? null : lastValue;
    const unit = reading?.unit ?? 'm';
    const percent = value === null ? null : (value / maxLevel) * 100;
    const a = device.analytics;
    const water = waterFigureTexts(a, a ? areFiguresStale(a, online, offlineAfterMs(device), now) : true);
    view.level = { percent, status: reading && !stale ? reading.status : null, warningPct, criticalPct, crestPct: crestM === null ? null : (crestM / maxLevel) * 100 };
    if (value !== null) view.lines.push(`${formatMeasure(value, unit)} · ${formatInteger(percent ?? 0)} %`);
    else if (lastValue !== null) view.lines.push(`Último valor ${formatMeasure(lastValue, unit)}`);
    if (water?.volume) view.lines.push(`Volumen ${water.volume}`);
    if (water?.forecast) view.lines.push(water.forecast.text);
    view.age = reading ? formatRelative(reading.ts, now) : null;
    view.stale = !online || stale;
    view.staleText = !online ? 'Desconectado' : lastValue === null ? 'Sin lectura' : stale ? 'Dato antiguo' : null;
    return named(view);
  }

  if (device.type === 'motorized_gate') {
    const state = gateState(device);
    const stale = !online || isReadingStale(device, now);
    view.gate = { state, moving: isGateMoving(state) };
    view.lines.push(state ? GATE_STATE_LABELS[state] : 'Sin datos');
    if (device.lastCommand) view.lines.push(`${commandLabel(device.lastCommand.command)} · ${commandProgressText(device.lastCommand)}`);
    view.age = device.reading ? formatRelative(device.reading.ts, now) : null;
    view.stale = stale;
    view.staleText = !online ? 'Desconectado' : stale ? 'Dato antiguo' : null;
    return named(view);
  }
  return { ...view, accessibleName: title };
}

/** The phone's order of the drawing: top to bottom, then left to right. */
export function readingOrder(items: readonly SynopticItem[]): SynopticItem[] {
  return [...items].sort((a, b) => a.y - b.y || a.x - b.x);
}

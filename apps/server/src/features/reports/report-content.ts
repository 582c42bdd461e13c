import {
  ALARM_PRIORITY_LABELS,
  COMMAND_STATUS_LABELS,
  commandLabel,
  REPORT_KIND_LABELS,
  addDays,
  periodLabel,
  type AlarmPriority,
  type CommandStatus,
  type DailyTotals,
  type DeviceType,
} from '@agua/shared';
import type { OverflowEventRecord } from '../overflows/overflow-events.repository';
import { overflowStats } from '../overflows/overflow-events.service';
import type { Cell, Column, ReportDocument, Section, Table } from './report-document';
import { periodBounds, type Period } from './report-periods';
import type { ReportRecord } from './reports.repository';

/** A device as a report names it. */
export interface ReportDevice {
  id: string;
  name: string;
  location: string;
  type: DeviceType;
}

export interface RaisedAlarm {
  deviceId: string;
  kind: string;
  priority: AlarmPriority;
  raisedAtMs: number;
  ackedAtMs: number | null;
  /** Back to normal (or ended): the end of a device_offline alarm's silence. */
  endedAtMs: number | null;
}

export interface GateOperation {
  deviceId: string;
  command: string;
  status: CommandStatus;
  /** Who sent it; null: the system (a schedule, an interlock). */
  issuedBy: string | null;
  issuedAtMs: number;
}

/** Where a report's figures come from: the other features' one doors (composed in app.ts). */
export interface ReportSources {
  /** Every device, retired ones too: a report of a past period names who was there. */
  devices(): ReportDevice[];
  dailyTotals(deviceId: string, fromDate: string, toDateExclusive: string): Promise<DailyTotals[]>;
  alarmsRaised(deviceIds: readonly string[], fromMs: number, toMs: number): Promise<RaisedAlarm[]>;
  gateOperations(deviceIds: readonly string[], fromMs: number, toMs: number): Promise<GateOperation[]>;
  overflowEvents(deviceIds: readonly string[], fromMs: number, toMs: number): Promise<OverflowEventRecord[]>;
  readingGaps(deviceId: string, fromMs: number, toMs: number, minGapMs: number): Promise<Array<{ fromMs: number; toMs: number }>>;
}

/** A silence in a device's readings longer than this is a data gap (docs/reports.md). */
export const DATA_GAP_MS = 15 * 60_000;

export const DAILY_COLUMNS: Column[] = [
  { header: 'Fecha', kind: 'date' },
  { header: 'Nivel mín. (m)', kind: 'number', decimals: 2 },
  { header: 'Nivel máx. (m)', kind: 'number', decimals: 2 },
  { header: 'Nivel medio (m)', kind: 'number', decimals: 2 },
  { header: 'Volumen inicial (m³)', kind: 'number', decimals: 1 },
  { header: 'Volumen final (m³)', kind: 'number', decimals: 1 },
  { header: 'Entrada (m³)', kind: 'number', decimals: 1 },
  { header: 'Salida (m³)', kind: 'number', decimals: 1 },
  { header: 'Tiempo sobre vertedero (s)', kind: 'integer' },
  { header: 'Desbordamientos', kind: 'integer' },
  { header: 'Completitud (%)', kind: 'number', decimals: 1 },
];

const ALARM_COLUMNS: Column[] = [
  { header: 'Prioridad', kind: 'text' },
  { header: 'Alarmas', kind: 'integer' },
  { header: 'Tiempo medio hasta reconocer (s)', kind: 'integer' },
];

const GATE_COLUMNS: Column[] = [
  { header: 'Fecha y hora', kind: 'datetime' },
  { header: 'Usuario', kind: 'text' },
  { header: 'Orden', kind: 'text' },
  { header: 'Resultado', kind: 'text' },
];

const EVENT_COLUMNS: Column[] = [
  { header: 'Inicio', kind: 'datetime' },
  { header: 'Fin', kind: 'datetime' },
  { header: 'Duración (s)', kind: 'integer' },
  { header: 'Nivel máximo (m)', kind: 'number', decimals: 2 },
  { header: 'Volumen (m³)', kind: 'number', decimals: 1 },
  { header: 'Causa', kind: 'text' },
  { header: 'Notificado', kind: 'datetime' },
];

const GAP_COLUMNS: Column[] = [
  { header: 'Desde', kind: 'datetime' },
  { header: 'Hasta', kind: 'datetime' },
  { header: 'Duración (s)', kind: 'integer' },
  { header: 'Tipo', kind: 'text' },
];

const PRIORITIES: AlarmPriority[] = [1, 2, 3, 4];

const at = (ms: number | null): Cell => (ms === null ? null : { at: ms });
const seconds = (fromMs: number, toMs: number) => Math.round((toMs - fromMs) / 1000);

/**
 * Builds the document of a run: what it says is a function of the stored data and the period
 * alone (never of the time it is generated), so the same period gives the same cells.
 */
export async function buildReport(sources: ReportSources, report: ReportRecord, period: Period, nowMs: number): Promise<ReportDocument> {
  const bounds = periodBounds(period);
  // A period still under way ends now: the silence after now is not a gap yet.
  const range = { fromMs: bounds.fromMs, toMs: Math.min(bounds.toMs, nowMs) };
  const chosen = report.deviceIds === null ? null : new Set(report.deviceIds);
  const devices = sources
    .devices()
    .filter((d) => (chosen ? chosen.has(d.id) : true))
    .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.id.localeCompare(b.id));
  const ids = devices.map((d) => d.id);
  const events = await sources.overflowEvents(ids, bounds.fromMs, bounds.toMs);
  const document = { title: `Informe ${report.name}`, subtitle: `${REPORT_KIND_LABELS[report.kind]} · ${periodLabel(period)}` };
  if (report.kind === 'overflows') return { ...document, sections: [overflowsSection(devices, events, bounds.toMs)] };

  const [alarms, operations] = await Promise.all([sources.alarmsRaised(ids, bounds.fromMs, bounds.toMs), sources.gateOperations(ids, bounds.fromMs, bounds.toMs)]);
  const sections: Section[] = [];
  for (const device of devices) {
    const tables: Table[] = [];
    if (device.type === 'level_sensor') {
      const days = await sources.dailyTotals(device.id, period.from, addDays(period.to, 1));
      tables.push({ title: null, columns: DAILY_COLUMNS, rows: days.map(dailyRow), empty: 'Sin datos diarios' });
    }
    const own = alarms.filter((a) => a.deviceId === device.id);
    tables.push({ title: 'Alarmas', columns: ALARM_COLUMNS, rows: alarmRows(own), empty: 'Sin alarmas' });
    tables.push({
      title: 'Operaciones de compuertas',
      columns: GATE_COLUMNS,
      rows: operations.filter((o) => o.deviceId === device.id).map((o) => [at(o.issuedAtMs), o.issuedBy ?? 'Sistema', commandLabel(o.command), COMMAND_STATUS_LABELS[o.status]]),
      empty: 'Sin operaciones',
    });
    tables.push({ title: 'Desbordamientos', columns: EVENT_COLUMNS, rows: events.filter((e) => e.deviceId === device.id).map(eventRow), empty: 'Sin desbordamientos' });
    const gaps = range.fromMs < range.toMs ? await sources.readingGaps(device.id, range.fromMs, range.toMs, DATA_GAP_MS) : [];
    tables.push({ title: 'Datos faltantes', columns: GAP_COLUMNS, rows: missingRows(gaps, own, range.toMs), empty: 'Sin datos faltantes' });
    sections.push({ sheetName: device.name, heading: `${device.name} (${device.id}) · ${device.location}`, tables });
  }
  return { ...document, sections };
}

function dailyRow(d: DailyTotals): Cell[] {
  return [
    { date: d.date },
    d.minLevelM,
    d.maxLevelM,
    d.meanLevelM,
    d.volumeStartM3,
    d.volumeEndM3,
    d.inflowM3,
    d.outflowM3,
    d.secondsAboveCrest === null ? null : Math.round(d.secondsAboveCrest),
    d.overflowEvents,
    d.completenessPct,
  ];
}

/** Per priority: alarms raised, and the mean time to acknowledge those acknowledged (empty: none). */
function alarmRows(alarms: readonly RaisedAlarm[]): Cell[][] {
  return PRIORITIES.map((p) => {
    const raised = alarms.filter((a) => a.priority === p);
    const acked = raised.filter((a) => a.ackedAtMs !== null);
    const meanS = acked.length === 0 ? null : Math.round(acked.reduce((sum, a) => sum + (a.ackedAtMs! - a.raisedAtMs), 0) / acked.length / 1000);
    return [ALARM_PRIORITY_LABELS[p], raised.length, meanS];
  });
}

function eventRow(e: OverflowEventRecord): Cell[] {
  const endMs = e.endedAtMs ?? e.lastReadingMs;
  return [at(e.startedAtMs), at(e.endedAtMs), seconds(e.startedAtMs, endMs), e.peakLevelM, e.volumeM3, e.cause, at(e.notifiedAtMs)];
}

/** Gaps in the readings and the device's offline alarms, oldest first. */
function missingRows(gaps: ReadonlyArray<{ fromMs: number; toMs: number }>, alarms: readonly RaisedAlarm[], toMs: number): Cell[][] {
  const rows: Array<{ fromMs: number; toMs: number | null; kind: string }> = [
    ...gaps.map((g) => ({ ...g, kind: 'Sin datos' })),
    ...alarms.filter((a) => a.kind === 'device_offline').map((a) => ({ fromMs: a.raisedAtMs, toMs: a.endedAtMs, kind: 'Sin conexión' })),
  ];
  rows.sort((a, b) => a.fromMs - b.fromMs || a.kind.localeCompare(b.kind));
  return rows.map((r) => [at(r.fromMs), at(r.toMs), seconds(r.fromMs, Math.min(r.toMs ?? toMs, toMs)), r.kind]);
}

const SUMMARY_COLUMNS: Column[] = [
  { header: 'Dispositivo', kind: 'text' },
  { header: 'Eventos', kind: 'integer' },
  { header: 'Desbordamientos 12/24', kind: 'integer' },
  { header: 'Duración total (s)', kind: 'integer' },
  { header: 'Volumen total (m³)', kind: 'number', decimals: 1 },
];

/** The overflows report: a summary per level sensor (the 12/24 count at the period's end), then every event. */
function overflowsSection(devices: readonly ReportDevice[], events: readonly OverflowEventRecord[], endMs: number): Section {
  const sensors = devices.filter((d) => d.type === 'level_sensor');
  const names = new Map(devices.map((d) => [d.id, d.name]));
  const summary = sensors.map((d) => {
    const stats = overflowStats(
      events.filter((e) => e.deviceId === d.id),
      endMs,
    );
    return [d.name, stats.events, stats.spills1224, Math.round(stats.totalDurationS), stats.totalVolumeM3] as Cell[];
  });
  const list = [...events].sort((a, b) => a.startedAtMs - b.startedAtMs || a.id.localeCompare(b.id));
  return {
    sheetName: 'Desbordamientos',
    heading: 'Desbordamientos',
    tables: [
      { title: null, columns: SUMMARY_COLUMNS, rows: summary, empty: 'Sin sensores de nivel' },
      {
        title: 'Eventos',
        columns: [{ header: 'Dispositivo', kind: 'text' }, ...EVENT_COLUMNS, { header: 'Notas', kind: 'text' }],
        rows: list.map((e) => [names.get(e.deviceId) ?? e.deviceId, ...eventRow(e), e.notes]),
        empty: 'Sin desbordamientos',
      },
    ],
  };
}

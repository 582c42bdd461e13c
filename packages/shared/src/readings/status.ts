import { DEFAULT_MAX_LEVEL_M, type GateState } from '../devices/devices';

export const READING_STATUSES = ['normal', 'warning', 'critical', 'fault'] as const;
export type ReadingStatus = (typeof READING_STATUSES)[number];

export const DEFAULT_WARNING_PCT = 60;
export const DEFAULT_CRITICAL_PCT = 85;

/** A level outside [-5 %, 120 %] of maxLevel cannot be real: the sensor is at fault (docs/protocol.md). */
export const FAULT_LOW_FACTOR = -0.05;
export const FAULT_HIGH_FACTOR = 1.2;

export interface LevelThresholds {
  maxLevel: number;
  warningPct?: number;
  criticalPct?: number;
}

/**
 * The current reading of a device is the one with the latest `ts` (docs/protocol.md): a candidate
 * replaces it when it is at least as new (the later arrival wins a tie), so a late batch fills
 * the history without moving the current reading backwards.
 */
export function isNewerReading(currentTsMs: number | null | undefined, candidateTsMs: number): boolean {
  return currentTsMs === null || currentTsMs === undefined || candidateTsMs >= currentTsMs;
}

/** A level sensor's thresholds with the defaults filled in (60 % / 85 % of maxLevel). */
export function levelThresholdsOf(settings: { maxLevel?: number | null; warningPct?: number | null; criticalPct?: number | null }): Required<LevelThresholds> {
  return {
    maxLevel: settings.maxLevel ?? DEFAULT_MAX_LEVEL_M,
    warningPct: settings.warningPct ?? DEFAULT_WARNING_PCT,
    criticalPct: settings.criticalPct ?? DEFAULT_CRITICAL_PCT,
  };
}

/** Status of a level reading: strictly above criticalPct → critical, above warningPct → warning. */
export function levelStatus(value: number, t: LevelThresholds): ReadingStatus {
  const { maxLevel } = t;
  if (!Number.isFinite(value)) return 'fault';
  if (value < FAULT_LOW_FACTOR * maxLevel || value > FAULT_HIGH_FACTOR * maxLevel) return 'fault';
  const critical = ((t.criticalPct ?? DEFAULT_CRITICAL_PCT) / 100) * maxLevel;
  const warning = ((t.warningPct ?? DEFAULT_WARNING_PCT) / 100) * maxLevel;
  if (value > critical) return 'critical';
  if (value > warning) return 'warning';
  return 'normal';
}

/** Status of a gate reading: a failed gate is a fault, every other state is normal. */
export function gateStatus(state: GateState): ReadingStatus {
  return state === 'falla' ? 'fault' : 'normal';
}

/** Seed colours: normal green, warning yellow, critical red, anything else gray. */
export type StatusColor = 'green' | 'yellow' | 'red' | 'gray';
export function statusColor(status: string | null | undefined): StatusColor {
  switch (status) {
    case 'normal':
      return 'green';
    case 'warning':
      return 'yellow';
    case 'critical':
      return 'red';
    default:
      return 'gray';
  }
}

/** Spanish word for a status, as in the Excel export and on screen. */
export const READING_STATUS_LABELS: Readonly<Record<ReadingStatus, string>> = {
  normal: 'Normal',
  warning: 'Advertencia',
  critical: 'Crítico',
  fault: 'Falla',
};

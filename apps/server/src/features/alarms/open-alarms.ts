import { isAlarmOpen } from '@agua/shared';
import type { AlarmRecord } from './alarms.repository';

/**
 * The open alarms the engine knows, held twice: the working state (each rule's open alarm, ahead
 * of the storage while a batch is being written) and the stored state (what readers see, so that
 * nothing is shown before it is committed).
 */
export class OpenAlarms {
  private readonly byRule = new Map<string, AlarmRecord>();
  private readonly stored = new Map<string, AlarmRecord>();

  clear(): void {
    this.byRule.clear();
    this.stored.clear();
  }

  /** An alarm as the storage holds it: working and stored at once (a load, or another instance's announcement). */
  follow(alarm: AlarmRecord): void {
    this.moved(alarm);
    this.committed(alarm);
  }

  /** The working state after a change: an open alarm stands for its rule, an ended one leaves it. */
  moved(alarm: AlarmRecord): void {
    if (isAlarmOpen(alarm.state)) this.byRule.set(alarm.ruleId, alarm);
    else if (this.byRule.get(alarm.ruleId)?.id === alarm.id) this.byRule.delete(alarm.ruleId);
  }

  /** A change is stored: readers see it. */
  committed(alarm: AlarmRecord): void {
    if (isAlarmOpen(alarm.state)) this.stored.set(alarm.id, alarm);
    else this.stored.delete(alarm.id);
  }

  /** The rule's open alarm in the working state. */
  ofRule(ruleId: string): AlarmRecord | undefined {
    return this.byRule.get(ruleId);
  }

  /** An open alarm in the working state (it may not be stored yet). */
  working(id: string): AlarmRecord | null {
    for (const a of this.byRule.values()) if (a.id === id) return a;
    return null;
  }

  workingOf(deviceId: string): AlarmRecord[] {
    return [...this.byRule.values()].filter((a) => a.deviceId === deviceId);
  }

  storedById(id: string): AlarmRecord | null {
    return this.stored.get(id) ?? null;
  }

  storedList(): AlarmRecord[] {
    return [...this.stored.values()];
  }
}

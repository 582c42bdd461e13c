import type { AlarmRecord } from './alarms.repository';

/** A shelving that ends while another instance runs its device's timers is looked at again this often (the device may move here). */
const SHELVE_RECHECK_MS = 5_000;

/** setTimeout's longest delay; a longer shelving is looked at again then. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The engine's clocks: a rule's on/off delay (docs/decisions/009-alarm-engine.md) and the end of a shelving. They only
 * say when; what happens then is the engine's work, submitted like any other input.
 */
export class AlarmTimers {
  /** Per rule: the pending change of its condition. */
  private readonly delays = new Map<string, NodeJS.Timeout>();
  /** Per alarm: the end of its shelving. */
  private readonly shelvings = new Map<string, NodeJS.Timeout>();

  constructor(
    /** Whether this instance runs the device's timers (several instances: the one that decides for it). */
    private readonly runsTimersOf: (deviceId: string) => boolean,
  ) {}

  /** The rule's condition changes after `seconds`; a newer input replaces the wait. */
  delay(ruleId: string, seconds: number, fire: () => void): void {
    this.cancelDelay(ruleId);
    const timer = setTimeout(() => {
      this.delays.delete(ruleId);
      fire();
    }, seconds * 1000);
    timer.unref();
    this.delays.set(ruleId, timer);
  }

  cancelDelay(ruleId: string): void {
    clearTimeout(this.delays.get(ruleId));
    this.delays.delete(ruleId);
  }

  /** `end` runs when the alarm's shelving is over, on the instance that runs its device's timers. */
  shelveUntil(alarm: AlarmRecord, end: (alarm: AlarmRecord) => void): void {
    this.cancelShelving(alarm.id);
    const delay = Math.max(0, (alarm.shelvedUntilMs ?? 0) - Date.now());
    const timer = setTimeout(() => {
      this.shelvings.delete(alarm.id);
      if (this.runsTimersOf(alarm.deviceId)) return end(alarm);
      this.shelvings.set(alarm.id, setTimeout(() => this.shelveUntil(alarm, end), SHELVE_RECHECK_MS).unref());
    }, Math.min(delay, MAX_TIMEOUT_MS));
    timer.unref();
    this.shelvings.set(alarm.id, timer);
  }

  cancelShelving(alarmId: string): void {
    clearTimeout(this.shelvings.get(alarmId));
    this.shelvings.delete(alarmId);
  }

  clear(): void {
    for (const t of this.delays.values()) clearTimeout(t);
    for (const t of this.shelvings.values()) clearTimeout(t);
    this.delays.clear();
    this.shelvings.clear();
  }
}

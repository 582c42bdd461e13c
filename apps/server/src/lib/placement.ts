/**
 * Where a device's work runs (ADR 013). With one instance it all runs here. With several, a
 * device is owned by the instance its traffic reaches: that one ingests it, decides whether it
 * is online, hands out its commands and evaluates its alarms; the others keep a replica of its
 * state from the owner's events. Timers of a device nobody owns run on the leader.
 */
export interface Placement {
  /** Whether this instance does the device's work. */
  owns(deviceId: string): boolean;
  /** Whether this instance runs the device's timers (its owner; the leader when no live instance owns it). */
  runsTimersOf(deviceId: string): boolean;
  /** The device was heard here: this instance becomes its owner. */
  claim(deviceId: string): void;
}

/** One instance: everything runs here. */
export const SOLO: Placement = {
  owns: () => true,
  runsTimersOf: () => true,
  claim: () => undefined,
};

import { DEFAULT_TRAVEL_TIMEOUT_S, GATE_TRAVEL_TARGET, isGateMoving, type GateState } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { DevicesService } from '../devices/devices.service';
import { SOLO, type Placement } from '../../lib/placement';

/** Records a gate's fault: its state and current reading become `falla` (the telemetry). */
export interface GateFaults {
  recordGateFault(deviceId: string): Promise<void>;
}

/** Where a gate command sends a gate. */
const TARGET_OF_COMMAND: Partial<Record<string, GateState>> = { abrir: 'abierta', cerrar: 'cerrada' };

/**
 * docs/protocol.md "Commands": a gate that does not reach its final state within its travel timeout
 * (`travelTimeoutS`, default 120 s) is reported as a fault. A watch starts when a gate takes an
 * abrir/cerrar command, when it reports itself moving (also moved by hand in the field), and at
 * start for gates that were left moving; it ends when the gate reports a final state or is
 * told to stop.
 */
export class GateTravelWatch {
  private readonly timers = new Map<string, { target: GateState; timer: NodeJS.Timeout }>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly devices: DevicesService,
    private readonly bus: EventBus,
    private readonly faults: GateFaults,
    private readonly onError: (err: unknown) => void,
    /** Several instances watch a gate left moving; the one that decides for it reports the fault. */
    private readonly placement: Placement = SOLO,
  ) {}

  /** Watches gates left moving by a previous run (from now: how long they moved before is unknown). */
  start(): void {
    this.unsubscribe = this.bus.on('reading.created', ({ deviceId, reading }) => {
      if (typeof reading.value === 'string') this.reported(deviceId, reading.value as GateState);
    });
    for (const { id } of this.devices.list()) {
      const state = this.devices.get(id)?.gateState;
      if (isGateMoving(state)) this.watch(id, GATE_TRAVEL_TARGET[state]);
    }
  }

  stop(): void {
    this.unsubscribe?.();
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** A gate took a command (successful acknowledgement): watch it unless it is already there. */
  commandTaken(deviceId: string, command: string): void {
    const target = TARGET_OF_COMMAND[command];
    if (target && this.devices.get(deviceId)?.gateState !== target) this.watch(deviceId, target);
  }

  /** A gate told to stop (detener) is not a gate that failed to arrive. */
  stopped(deviceId: string): void {
    this.end(deviceId);
  }

  private reported(deviceId: string, state: GateState): void {
    if (isGateMoving(state)) {
      const target = GATE_TRAVEL_TARGET[state];
      // Already watched towards that target: the clock keeps running from the first sign.
      if (this.timers.get(deviceId)?.target !== target) this.watch(deviceId, target);
    } else {
      this.end(deviceId);
    }
  }

  private watch(deviceId: string, target: GateState): void {
    const device = this.devices.get(deviceId);
    if (!device || device.type !== 'motorized_gate') return;
    this.end(deviceId);
    const timeoutS = device.settings.travelTimeoutS ?? DEFAULT_TRAVEL_TIMEOUT_S;
    const timer = setTimeout(() => {
      this.timers.delete(deviceId);
      if (this.devices.get(deviceId)?.gateState !== target && this.placement.runsTimersOf(deviceId)) this.faults.recordGateFault(deviceId).catch(this.onError);
    }, timeoutS * 1000);
    timer.unref();
    this.timers.set(deviceId, { target, timer });
  }

  private end(deviceId: string): void {
    clearTimeout(this.timers.get(deviceId)?.timer);
    this.timers.delete(deviceId);
  }
}

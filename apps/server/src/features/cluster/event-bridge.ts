import type { FastifyBaseLogger } from 'fastify';
import type { Alarm, AlarmRule, Device, Reading } from '@agua/shared';
import type { EventBus, InternalEvents } from '../../lib/event-bus';
import type { AlarmEngine } from '../alarms/alarm-engine';
import type { AlarmRulesService } from '../alarms/alarm-rules.service';
import type { DevicesService } from '../devices/devices.service';
import type { Cluster } from './cluster';

type EventType = keyof InternalEvents;

/** Events every other instance must hear of. */
const SHARED: readonly EventType[] = [
  'reading.created',
  'device.updated',
  'command.updated',
  'device.removed',
  'alarm.updated',
  'overflow.updated',
  'report_run.updated',
  'interlock.updated',
  'interlock.removed',
  'schedule.updated',
  'schedule.removed',
  'schedule.run',
  'site.updated',
  'site.removed',
  'synoptic.updated',
  'alarm_rule.updated',
  'device.record_changed',
  'device.geometry_changed',
  'sessions.ended',
  'device.revoked',
];
/** Events the live socket turns into frames (or acts on). */
const TO_BROWSERS: readonly EventType[] = ['reading.created', 'device.updated', 'command.updated', 'device.removed', 'alarm.updated', 'overflow.updated', 'report_run.updated', 'interlock.updated', 'interlock.removed', 'schedule.updated', 'schedule.removed', 'schedule.run', 'site.updated', 'site.removed', 'synoptic.updated', 'sessions.ended', 'live.resync'];

/** After Redis comes back, the other instances' states arrive within about this long; then browsers get a fresh snapshot. */
const RESYNC_AFTER_MS = 1_500;

export interface Replicas {
  devices: DevicesService;
  alarms: AlarmEngine;
  rules: AlarmRulesService;
  /** Alarm changes stored elsewhere may carry notifications for the sender here. */
  alarmChanged(): void;
  /** An instance acted for a device (a reading stored, its state told): a hint of who owns it. */
  heardOf(deviceId: string, instance: string): void;
}

/**
 * Carries the in-process events of this instance to the others and theirs to this one (ADR 013).
 * Remote events are not emitted on the local bus — the features here would act on them twice —
 * but applied to this instance's replicas (devices, open alarms, rules) and handed to the live
 * sockets through `feed`. Those that only cut connections (sessions ended, device revoked) are
 * emitted locally, since cutting what this instance holds is exactly what they ask for.
 */
export class EventBridge {
  /** Set while a remote event is emitted locally: it is not sent back out. */
  private applying = false;
  /** Remote events are applied one after another, in the order they came. */
  private queue: Promise<void> = Promise.resolve();
  private resyncTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly cluster: Cluster,
    private readonly bus: EventBus,
    /** What the live sockets listen to: this instance's events and the others'. */
    private readonly feed: EventBus,
    private readonly replicas: Replicas,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    for (const type of SHARED) {
      this.bus.on(type, (data) => {
        if (!this.applying) this.cluster.broadcast('event', { type, data });
      });
    }
    for (const type of TO_BROWSERS) this.bus.on(type, (data) => this.feed.emit(type, data as never));
    this.cluster.on('event', (body, from) => {
      const { type, data } = body as { type: EventType; data: unknown };
      this.queue = this.queue.then(() => this.apply(type, data, from)).catch((err: unknown) => this.log.error({ err, type }, 'an event of another instance could not be applied'));
    });
    this.cluster.onReconnect(() => void this.resync());
  }

  stop(): void {
    clearTimeout(this.resyncTimer);
  }

  private async apply(type: EventType, data: unknown, from: string): Promise<void> {
    const { devices, alarms, rules } = this.replicas;
    switch (type) {
      case 'reading.created': {
        const { deviceId, reading } = data as { deviceId: string; reading: Reading };
        this.replicas.heardOf(deviceId, from);
        devices.applyRemoteReading(deviceId, reading);
        break;
      }
      case 'device.updated':
        this.replicas.heardOf((data as Device).id, from);
        devices.applyRemote(data as Device);
        break;
      case 'command.updated':
      case 'overflow.updated':
      case 'report_run.updated':
      case 'interlock.updated':
      case 'interlock.removed':
      case 'schedule.updated':
      case 'schedule.removed':
      case 'schedule.run':
      case 'site.updated':
      case 'site.removed':
      case 'synoptic.updated':
        break;
      case 'device.removed':
        devices.remove((data as { id: string }).id, 'elsewhere');
        break;
      case 'alarm.updated':
        await alarms.adoptRemote(data as Alarm);
        this.replicas.alarmChanged();
        break;
      case 'device.record_changed': {
        const { id } = data as { id: string };
        await devices.reloadRecord(id);
        const device = devices.get(id);
        if (device) await rules.reloadDevice(id, device.type);
        return;
      }
      case 'alarm_rule.updated': {
        const { deviceId } = data as { deviceId: string; rule: AlarmRule };
        const device = devices.get(deviceId);
        if (device) await rules.reloadDevice(deviceId, device.type);
        // The engine evaluates the device again if it decides for it.
        this.emitLocally(type, data);
        return;
      }
      case 'sessions.ended':
      case 'device.revoked':
      case 'device.geometry_changed':
        this.emitLocally(type, data);
        return;
      default:
        return;
    }
    if ((TO_BROWSERS as readonly string[]).includes(type)) this.feed.emit(type, data as never);
  }

  private emitLocally(type: EventType, data: unknown): void {
    this.applying = true;
    try {
      this.bus.emit(type, data as never);
    } finally {
      this.applying = false;
    }
  }

  /**
   * Redis came back: what the others announced meanwhile was lost. This instance publishes the
   * devices it decides for again, reloads the open alarms of the others' devices from the
   * storage, and gives every live socket a fresh snapshot once the others have done the same.
   */
  private async resync(): Promise<void> {
    this.replicas.devices.announceAll();
    await this.replicas.alarms.reloadReplica().catch((err: unknown) => this.log.error({ err }, 'reloading alarms after Redis came back failed'));
    clearTimeout(this.resyncTimer);
    this.resyncTimer = setTimeout(() => this.feed.emit('live.resync', {}), RESYNC_AFTER_MS);
    this.resyncTimer.unref();
  }
}

import type { CommandStatus, DeviceCommand } from '@agua/shared';
import { AppError } from '../../lib/errors';
import { SOLO, type Placement } from '../../lib/placement';
import type { CommandsService } from '../commands/commands.service';
import type { DeviceRecord } from '../devices/devices.repository';
import type { DevicesService } from '../devices/devices.service';
import type { IngestResult, TelemetryService } from '../telemetry/telemetry.service';
import type { IngestMetrics, Transport } from '../metrics/metrics';
import type { DeviceRateLimiter } from './rate-limiter';

/** Keys longer than this are nobody's (docs/protocol.md keys are 43 characters); not worth hashing. */
const MAX_KEY_LENGTH = 512;

export interface DeviceGatewayDeps {
  devices: DevicesService;
  limiter: DeviceRateLimiter;
  telemetry: TelemetryService;
  commands: CommandsService;
  metrics?: IngestMetrics;
  /** Several instances: the instance a device's traffic reaches becomes its owner. */
  placement?: Placement;
}

/**
 * Where every message of a device enters, whatever its transport: HTTP, the long poll and MQTT
 * are thin adapters over this (framing, status codes, PUBACK). The rules of docs/protocol.md live
 * here once: the key, the rate, what counts as being heard, storage before the answer, commands
 * handed out and acknowledged.
 */
export class DeviceGateway {
  private readonly placement: Placement;

  constructor(private readonly deps: DeviceGatewayDeps) {
    this.placement = deps.placement ?? SOLO;
  }

  /**
   * The device a key belongs to: 401 without or with an unknown key, 403 when disabled. A device
   * that shows a valid key has been heard, whatever its request turns out to hold.
   */
  authenticate(key: string | undefined): DeviceRecord {
    if (!key) throw new AppError(401, 'DEVICE_KEY_MISSING');
    const device = key.length <= MAX_KEY_LENGTH ? this.deps.devices.findByKey(key) : undefined;
    if (!device) throw new AppError(401, 'DEVICE_KEY_INVALID');
    if (!device.enabled) throw new AppError(403, 'DEVICE_DISABLED');
    this.placement.claim(device.id);
    this.deps.devices.heard(device.id);
    return device;
  }

  /** A request of a device (HTTP): its key, then its rate — 429 with Retry-After when over it. */
  admit(key: string | undefined): DeviceRecord {
    const device = this.authenticate(key);
    const waitMs = this.rateWait(device.id);
    if (waitMs > 0) throw new AppError(429, 'RATE_LIMITED', undefined, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
    return device;
  }

  /** Takes one message off the device's rate: 0 when allowed, else milliseconds until it would be. */
  rateWait(deviceId: string): number {
    return this.deps.limiter.take(deviceId);
  }

  /** A device already authenticated by its transport (an MQTT session): 401/403 once its access went away. */
  activeDevice(deviceId: string): DeviceRecord {
    const device = this.deps.devices.get(deviceId);
    if (!device || device.retiredAtMs !== null) throw new AppError(401, 'DEVICE_KEY_INVALID');
    if (!device.enabled) throw new AppError(403, 'DEVICE_DISABLED');
    return device;
  }

  /** The device when it exists and may connect (enabled, not retired); undefined otherwise. */
  knownDevice(deviceId: string): DeviceRecord | undefined {
    const device = this.deps.devices.get(deviceId);
    return device && device.enabled && device.retiredAtMs === null ? device : undefined;
  }

  /** Any contact of an authenticated device (an MQTT publish of any kind). */
  heard(deviceId: string): void {
    this.placement.claim(deviceId);
    this.deps.devices.heard(deviceId);
  }

  /** An MQTT session or a long poll opened (+1) or closed (-1): online while one is open. */
  connection(deviceId: string, delta: 1 | -1, kind: 'mqtt' | 'poll'): void {
    this.deps.devices.connection(deviceId, delta, kind);
  }

  /** Validates and stores a message or a batch; resolves once every accepted reading is committed. */
  async ingest(device: DeviceRecord, body: unknown, transport: Transport): Promise<IngestResult> {
    try {
      const result = await this.deps.telemetry.ingest(device, body);
      this.deps.metrics?.ingested(transport, result.accepted, result.duplicates);
      return result;
    } catch (err) {
      this.deps.metrics?.refused(transport, err instanceof AppError ? err.code : 'INTERNAL_ERROR');
      throw err;
    }
  }

  /** The device's waiting command, if any (handed out with an HTTP answer). */
  takeCommands(deviceId: string): Promise<DeviceCommand[]> {
    return this.deps.commands.handOut(deviceId);
  }

  /** Waits up to waitMs for a command (HTTP long poll); the device counts as connected meanwhile. */
  waitForCommands(deviceId: string, waitMs: number, signal: AbortSignal): Promise<DeviceCommand[]> {
    return this.deps.commands.longPoll(deviceId, waitMs, signal);
  }

  /** An acknowledgement of a named command (HTTP); the command's status after it. */
  acknowledge(deviceId: string, commandId: string, body: unknown): Promise<CommandStatus> {
    return this.deps.commands.acknowledge(deviceId, commandId, body);
  }

  /** An acknowledgement whose body may name no command (MQTT): it is for the command in flight. */
  acknowledgeMessage(deviceId: string, body: unknown): Promise<void> {
    return this.deps.commands.acknowledgeMessage(deviceId, body);
  }
}

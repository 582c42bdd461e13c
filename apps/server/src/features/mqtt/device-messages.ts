import type { FastifyBaseLogger } from 'fastify';
import secureJson from 'secure-json-parse';
import { MAX_BODY_BYTES, errorMessage, topics } from '@agua/shared';
import { AppError } from '../../lib/errors';
import type { DeviceGateway } from '../gateway/device-gateway';

/**
 * What a device's MQTT message holds, by the HTTP body parser's rules: over 256 KiB is 413,
 * anything but JSON (or JSON with `__proto__` / `constructor.prototype` keys) is 400.
 */
export function messageBody(payload: Buffer): unknown {
  if (payload.length > MAX_BODY_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE');
  try {
    return secureJson.parse(payload.toString('utf8'), null, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new AppError(400, 'INVALID_JSON');
  }
}

/** Publishes a message to a device (the broker's or the connection's own publish). */
export type DevicePublish = (topic: string, payload: unknown, qos: 0 | 1) => Promise<void>;

/**
 * Runs the work a device's message asks for. A refused message is still acknowledged (MQTT 3.1.1
 * has no negative PUBACK) and the refusal goes to the device's errors topic. Any other failure
 * (storage) is thrown: the transport then withholds the acknowledgement, so the message comes
 * again — an acknowledgement means stored.
 */
export async function handleDeviceMessage(deviceId: string, work: () => Promise<void>, publish: DevicePublish, log: FastifyBaseLogger): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof AppError)) {
      log.error({ err, deviceId }, 'mqtt message failed; not acknowledged');
      throw err;
    }
    const body = { error: err.message || errorMessage(err.code), code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) };
    // QoS 0: a refusal is informational (the message is already acknowledged), so it is never
    // queued for a session that is away and costs the broker nothing to hold.
    await publish(topics.errors(deviceId), body, 0).catch(() => undefined);
  }
}

const DEVICE_TOPIC = /^agua\/v1\/([^/]+)\/(telemetry|commands\/ack|status)$/;

/** What a device publishes (docs/protocol.md "MQTT"): its telemetry, its command acks and its status. */
export interface DeviceTopic {
  deviceId: string;
  kind: 'telemetry' | 'commands/ack' | 'status';
}

/** The device and the kind of message a topic names, or null for any other topic. */
export function deviceTopic(topic: string): DeviceTopic | null {
  const match = DEVICE_TOPIC.exec(topic);
  return match ? { deviceId: match[1]!, kind: match[2] as DeviceTopic['kind'] } : null;
}

export interface DispatchOptions {
  publish: DevicePublish;
  log: FastifyBaseLogger;
  /** The transport's own admission, run once the device is known active and before the body is read (throws to refuse). */
  admit?: (deviceId: string) => void;
}

/**
 * The one dispatch of a device's MQTT publish, for both brokers (embedded and external): telemetry
 * is stored, a command ack settles its command; status (and any other topic) is the transport's
 * business and is left alone. Refusals and failures follow `handleDeviceMessage`.
 */
export async function dispatchDeviceMessage(gateway: DeviceGateway, topic: string, payload: Buffer, opts: DispatchOptions): Promise<void> {
  const target = deviceTopic(topic);
  if (!target || target.kind === 'status') return;
  const { deviceId, kind } = target;
  await handleDeviceMessage(
    deviceId,
    async () => {
      const device = gateway.activeDevice(deviceId);
      opts.admit?.(deviceId);
      const body = messageBody(payload);
      if (kind === 'telemetry') await gateway.ingest(device, body, 'mqtt');
      else await gateway.acknowledgeMessage(deviceId, body);
    },
    opts.publish,
    opts.log,
  );
}

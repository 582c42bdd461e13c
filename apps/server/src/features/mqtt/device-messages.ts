import type { FastifyBaseLogger } from 'fastify';
import secureJson from 'secure-json-parse';
import { MAX_BODY_BYTES, errorMessage, topics } from '@agua/shared';
import { AppError } from '../../lib/errors';

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

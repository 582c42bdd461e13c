import { createHmac, randomBytes } from 'node:crypto';

/**
 * Device keys are high-entropy, so a keyed fast hash is right (docs/protocol.md): HMAC-SHA-256 with a
 * server secret ("pepper"). Lookup is by the hash, so no key is ever compared byte by byte.
 */
export function hashDeviceKey(pepper: string, key: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

/** A new device key: 256 random bits, URL-safe. */
export function newDeviceKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The demo key of a seed device (docs/protocol.md "Identity and keys"). */
export function demoDeviceKey(deviceId: string): string {
  return `demo-key-${deviceId}`;
}

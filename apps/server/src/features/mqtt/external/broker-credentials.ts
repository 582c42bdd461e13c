import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../storage/schema';

/**
 * A sealed key that cannot be opened: sealed under another pepper (DEVICE_KEY_PEPPER set or changed
 * since), or damaged. Waiting will not mend it; the device's key must be rotated.
 */
export class SealedKeyUnreadableError extends Error {
  constructor(readonly deviceId: string) {
    super(`the key waiting for the broker for device ${deviceId} cannot be opened (sealed under another DEVICE_KEY_PEPPER, or damaged)`);
  }
}

/** A device key on its way to the broker. */
export interface PendingCredential {
  deviceId: string;
  key: string;
  issuedAtMs: number;
}

/**
 * Device keys the external broker has not confirmed yet. A key is stored before the device row
 * that uses it (create, rotation), so a crash in between leaves a key for a device that does not
 * exist (dropped) rather than a device whose key the broker can never learn. Sealed with
 * AES-256-GCM under a key derived from the device-key pepper: a copy of the database alone
 * does not reveal it, and the row lives only until the broker has it.
 */
export class BrokerCredentials {
  private readonly sealKey: Buffer;

  constructor(
    private readonly db: Kysely<Database>,
    pepper: string,
  ) {
    this.sealKey = Buffer.from(hkdfSync('sha256', pepper, 'agua', 'broker-credentials', 32));
  }

  async put(deviceId: string, key: string, issuedAtMs = Date.now()): Promise<void> {
    const row = { device_id: deviceId, key_sealed: this.seal(key), issued_at_ms: issuedAtMs };
    await this.db
      .insertInto('broker_credentials')
      .values(row)
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ key_sealed: row.key_sealed, issued_at_ms: row.issued_at_ms }))
      .execute();
  }

  async get(deviceId: string): Promise<PendingCredential | null> {
    const row = await this.db.selectFrom('broker_credentials').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
    if (!row) return null;
    let key: string;
    try {
      key = this.open(row.key_sealed);
    } catch {
      throw new SealedKeyUnreadableError(deviceId);
    }
    return { deviceId, key, issuedAtMs: Number(row.issued_at_ms) };
  }

  async deviceIds(): Promise<string[]> {
    return (await this.db.selectFrom('broker_credentials').select('device_id').execute()).map((r) => r.device_id);
  }

  /** The broker has this key: forgets it, unless a newer one was issued meanwhile. */
  async delivered(credential: Pick<PendingCredential, 'deviceId' | 'issuedAtMs'>): Promise<void> {
    await this.db.deleteFrom('broker_credentials').where('device_id', '=', credential.deviceId).where('issued_at_ms', '=', credential.issuedAtMs).execute();
  }

  async drop(deviceId: string): Promise<void> {
    await this.db.deleteFrom('broker_credentials').where('device_id', '=', deviceId).execute();
  }

  private seal(key: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const sealed = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  private open(value: string): string {
    const [version, iv, sealed, tag] = value.split('.');
    if (version !== 'v1' || !iv || sealed === undefined || !tag) throw new Error('a sealed broker credential in an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  }
}

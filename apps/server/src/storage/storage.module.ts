import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env';
import { DiskSpaceWatch } from './disk-space';
import { SettingsRepository } from './settings.repository';
import { StorageHealth } from './storage-health';
import type { Storage } from './storage';

export interface StorageServicesDeps {
  config: Pick<Config, 'dataDir' | 'diskMinFreeMb'>;
  storage: Storage;
  log: FastifyBaseLogger;
}

/** What watches the open storage, and the server's own settings kept in it. */
export interface StorageServices {
  settings: SettingsRepository;
  /** Whether the storage takes writes now: what health checks and operators see. */
  storageHealth: StorageHealth;
  disk: DiskSpaceWatch;
}

export function createStorageServices({ config, storage, log }: StorageServicesDeps): StorageServices {
  const settings = new SettingsRepository(storage.db);
  // The probe is a tiny real write: whether the storage takes writes again after a fault.
  const storageHealth = new StorageHealth(() => settings.put('storage_probe', new Date().toISOString()), log);
  // DATA_DIR's disk holds the database only on SQLite; PostgreSQL reports a full disk itself (53100).
  if (storage.engine === 'postgres') fs.mkdirSync(config.dataDir, { recursive: true });
  const disk = new DiskSpaceWatch(config.dataDir, storage.engine === 'sqlite' ? config.diskMinFreeMb * 2 ** 20 : 0, log);
  return { settings, storageHealth, disk };
}

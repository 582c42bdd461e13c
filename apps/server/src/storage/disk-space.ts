import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
  /** Free space is under the configured minimum. */
  low: boolean;
}

/**
 * Free space of the file system that holds the data directory, so that operators hear of a
 * filling disk before writes start failing: checked on demand and every `everyMs`; the log warns
 * once each time the free space falls under the minimum, not at every check.
 */
export class DiskSpaceWatch {
  private timer: NodeJS.Timeout | null = null;
  private wasLow = false;

  constructor(
    private readonly dir: string,
    private readonly minFreeBytes: number,
    private readonly log: FastifyBaseLogger,
    private readonly everyMs = 30_000,
  ) {}

  async check(): Promise<DiskSpace> {
    const stats = await fs.promises.statfs(this.dir);
    // bavail, not bfree: blocks reserved for root are not the server's to count on.
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const low = freeBytes < this.minFreeBytes;
    if (low !== this.wasLow) {
      const fields = { dataDir: this.dir, freeMb: Math.floor(freeBytes / 2 ** 20), minFreeMb: this.minFreeBytes / 2 ** 20 };
      if (low) this.log.warn(fields, 'free disk space is low: free space or grow the disk before readings are refused');
      else this.log.info(fields, 'free disk space is above the minimum again');
      this.wasLow = low;
    }
    return { freeBytes, totalBytes, low };
  }

  /** Checks every `everyMs`; with no minimum (0) there is nothing to warn of, so nothing to check. */
  start(): void {
    if (this.minFreeBytes === 0) return;
    const tick = () => void this.check().catch((err: unknown) => this.log.error({ err, dataDir: this.dir }, 'free disk space check failed'));
    tick();
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { StorageFaultCode } from '@agua/shared';

/**
 * Primary SQLite result codes that say the storage, not the request, failed: I/O errors, a file
 * that cannot be opened or written, a lock held past the busy timeout, a damaged file. A client
 * can only wait and resend (503), and a device must keep its readings meanwhile. Other codes
 * (constraints, misuse) are bugs: 500.
 */
const UNAVAILABLE = new Set(['SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_BUSY', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_PROTOCOL']);

/** Seconds a client is told to wait before resending after a storage fault. */
export const STORAGE_RETRY_AFTER_S = 30;

/**
 * How long a storage fault is believed without new evidence before a probe write may clear it.
 * Public health checks may come often and each probe is an fsynced write; and a probe so small
 * that it fits in space a failed write left behind must not clear a fault that just happened.
 */
const PROBE_AFTER_MS = 2000;

/** The storage could not be reached at all (the ingest store's writer thread died): the client resends later. */
export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
}

/**
 * PostgreSQL's SQLSTATE classes that say the database, not the request, failed: connection
 * exceptions (08), insufficient resources (53), operator intervention such as a shutdown (57),
 * system errors (58), and a transaction rolled back by a deadlock or serialization failure (40),
 * which a resend settles.
 */
const PG_UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '57', '58']);
/** Network failures on the way to PostgreSQL. */
const PG_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** The node-postgres failures that carry no SQLSTATE: the connection itself broke or never came. */
const PG_CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/;

/**
 * Set on every failure that PostgreSQL's client gives the server (storage/postgres/engine-errors.ts).
 * A network code such as ECONNRESET says nothing of its origin: a client that drops its request
 * mid-body, a Redis or MQTT broker that goes away, fail with the same codes. Only a failure the
 * engine itself reported may mark the storage down (docs/security.md, "Storage faults").
 */
const ENGINE_FAILURE = Symbol('storage engine failure');

/** Marks a failure as reported by the storage engine's client; other values are returned as they are. */
export function markEngineFailure<T>(err: T): T {
  if (err !== null && typeof err === 'object' && !(ENGINE_FAILURE in err)) {
    Object.defineProperty(err, ENGINE_FAILURE, { value: true, enumerable: false });
  }
  return err;
}

const isEngineFailure = (err: unknown): boolean => err !== null && typeof err === 'object' && ENGINE_FAILURE in err;

/**
 * The storage fault a failure stands for (SQLite's extended result codes, PostgreSQL's SQLSTATEs, a
 * lost connection to PostgreSQL); null for any other failure. SQLite's codes are its own; the rest
 * count only when PostgreSQL's client reported them.
 */
export function storageFaultOf(err: unknown): StorageFaultCode | null {
  if (err instanceof StorageUnavailableError) return 'STORAGE_UNAVAILABLE';
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    const primary = code.split('_', 2).join('_');
    if (primary === 'SQLITE_FULL') return 'STORAGE_FULL';
    return UNAVAILABLE.has(primary) ? 'STORAGE_UNAVAILABLE' : null;
  }
  if (!isEngineFailure(err)) return null;
  // Before SQLSTATEs: EPIPE has their shape.
  if (typeof code === 'string' && PG_NETWORK_CODES.has(code)) return 'STORAGE_UNAVAILABLE';
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    if (code === '53100') return 'STORAGE_FULL';
    return PG_UNAVAILABLE_CLASSES.has(code.slice(0, 2)) ? 'STORAGE_UNAVAILABLE' : null;
  }
  const message = (err as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message) ? 'STORAGE_UNAVAILABLE' : null;
}

export interface StorageFault {
  code: StorageFaultCode;
  sinceMs: number;
}

/**
 * Whether the storage currently takes writes: a failed write with a storage fault records it, a
 * write that goes through clears it. Nothing else is needed to recover (SQLite rolls the failed
 * transaction back); this only lets health checks and operators see the fault while it lasts.
 */
export class StorageHealth {
  private fault: StorageFault | null = null;
  private checkedMs = 0;

  constructor(
    /** A tiny real write, to learn whether a recorded fault still holds. */
    private readonly probe: () => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Records a failure if it is a storage fault; returns its code, or null for any other failure. */
  failed(err: unknown, nowMs = Date.now()): StorageFaultCode | null {
    const code = storageFaultOf(err);
    if (code !== null && this.fault?.code !== code) {
      // Once per onset: a full disk refuses every request, and the log may be on that disk too.
      this.log.error({ err, code }, 'storage fault: writes are refused until it clears');
      this.fault = { code, sinceMs: nowMs };
    }
    this.checkedMs = nowMs;
    return code;
  }

  /** A write went through: the storage works again. */
  succeeded(): void {
    if (this.fault === null) return;
    this.log.info({ code: this.fault.code }, 'storage fault cleared');
    this.fault = null;
  }

  /** The fault holding now; once it is PROBE_AFTER_MS old without new evidence, a probe write checks it. */
  async current(nowMs = Date.now()): Promise<StorageFault | null> {
    if (this.fault === null || nowMs - this.checkedMs < PROBE_AFTER_MS) return this.fault;
    this.checkedMs = nowMs;
    try {
      await this.probe();
      this.succeeded();
    } catch (err) {
      this.failed(err, nowMs);
    }
    return this.fault;
  }
}

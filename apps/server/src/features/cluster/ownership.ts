import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Cluster } from './cluster';
import type { Placement } from '../../lib/placement';

/** A device's owner holds its lease this long without renewing it; renewed every RENEW_MS. */
const LEASE_MS = 15_000;
/** How often the job list renews this instance's device leases. */
export const RENEW_MS = 5_000;
const leaseKey = (deviceId: string) => `agua:device:${deviceId}:owner`;
const epochKey = (deviceId: string) => `agua:device:${deviceId}:epoch`;

/** A device's epoch counter outlives its leases by this much (a device silent for a week starts again from 1: no lease is left to compare with). */
const EPOCH_TTL_MS = 7 * 24 * 3600 * 1000;

/** A new epoch for the device, and the lease "instance:epoch" under it. */
const CLAIM = `local e = redis.call('INCR', KEYS[2]); redis.call('PEXPIRE', KEYS[2], ARGV[3]); redis.call('SET', KEYS[1], ARGV[1] .. ':' .. e, 'PX', ARGV[2]); return e`;
/** Renews the lease only while it is still this claim's. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[2], ARGV[3]); return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

/** A lease's value: "instance:epoch" (an instance name may hold colons itself). */
function parseLease(value: string): { instance: string; epoch: number } {
  const split = value.lastIndexOf(':');
  return { instance: value.slice(0, split), epoch: Number(value.slice(split + 1)) };
}

export interface OwnershipHooks {
  /** This instance became the device's owner: load what the owner keeps (its command in flight). */
  adopted(deviceId: string): void;
  /** Another instance took the device: close its session here and drop what only its owner keeps. */
  released(deviceId: string): void;
}

/**
 * Which instance owns each device (ADR 013): the one that heard it last. A claim takes a new
 * epoch from Redis (INCR) and a lease naming this instance and that epoch, and tells every
 * instance; an owner that hears of a claim with a higher epoch lets the device go (its session is
 * closed here: one session per device across instances). Leases are renewed while held and run
 * out 15 s after their instance died; the leader runs the timers of the devices of an instance
 * not heard for 10 s (Cluster.isAlive).
 *
 * Redis only arbitrates: while it is away the device stays with whoever hears it (ingest never
 * waits for Redis), and when it is back every owner claims its devices again.
 */
export class DeviceOwnership implements Placement {
  /** Devices owned here, with the epoch of this instance's claim (0 while the claim is under way). */
  private readonly mine = new Map<string, number>();
  /** The newest claim heard of for each device owned elsewhere: who, and with which epoch. */
  private readonly elsewhere = new Map<string, { instance: string; epoch: number }>();
  private hooks: OwnershipHooks = { adopted: () => undefined, released: () => undefined };

  constructor(
    private readonly cluster: Cluster,
    private readonly redis: Redis,
    private readonly isLeader: () => boolean,
    private readonly log: FastifyBaseLogger,
  ) {
    cluster.on('owner', (body, from) => this.claimedElsewhere(body as { deviceId: string; epoch: number }, from));
    // A restarted Redis counts epochs from zero again: the owners heard of stay owners (their
    // devices would otherwise fall to the leader's timers until they claim again), but any new
    // claim outranks them.
    cluster.onReconnect(() => {
      for (const owner of this.elsewhere.values()) owner.epoch = 0;
      for (const deviceId of this.mine.keys()) {
        this.mine.set(deviceId, 0);
        this.takeLease(deviceId);
      }
    });
  }

  useHooks(hooks: OwnershipHooks): void {
    this.hooks = hooks;
  }

  /**
   * Learns the owners other instances hold leases for, so that an instance started after their
   * claims (and maybe elected leader) does not take their devices for ownerless.
   */
  async start(): Promise<void> {
    await this.learnOwners().catch((err: Error) => this.log.warn({ err: err.message }, 'device owners not read from Redis'));
  }

  private async learnOwners(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', leaseKey('*'), 'COUNT', 1000);
      cursor = next;
      if (keys.length === 0) continue;
      const holders = await this.redis.mget(keys);
      keys.forEach((key, i) => {
        const holder = holders[i];
        if (!holder) return;
        const deviceId = key.slice('agua:device:'.length, -':owner'.length);
        const { instance, epoch } = parseLease(holder);
        if (instance !== this.cluster.instanceId && !this.mine.has(deviceId) && !this.elsewhere.has(deviceId)) this.elsewhere.set(deviceId, { instance, epoch });
      });
    } while (cursor !== '0');
  }

  owns(deviceId: string): boolean {
    return this.mine.has(deviceId);
  }

  runsTimersOf(deviceId: string): boolean {
    if (this.mine.has(deviceId)) return true;
    const owner = this.elsewhere.get(deviceId);
    return (owner === undefined || !this.cluster.isAlive(owner.instance)) && this.isLeader();
  }

  /** The live instance that owns the device, when it is another one. */
  holderOf(deviceId: string): string | null {
    if (this.mine.has(deviceId)) return null;
    const owner = this.elsewhere.get(deviceId);
    return owner && this.cluster.isAlive(owner.instance) ? owner.instance : null;
  }

  /** How many devices this instance owns (metrics). */
  ownedCount(): number {
    return this.mine.size;
  }

  claim(deviceId: string): void {
    if (this.mine.has(deviceId)) return;
    this.mine.set(deviceId, 0);
    this.elsewhere.delete(deviceId);
    this.hooks.adopted(deviceId);
    this.takeLease(deviceId);
  }

  private takeLease(deviceId: string): void {
    this.redis
      .eval(CLAIM, 2, leaseKey(deviceId), epochKey(deviceId), this.cluster.instanceId, LEASE_MS, EPOCH_TTL_MS)
      .then((result) => {
        const epoch = Number(result);
        if (!this.mine.has(deviceId)) return;
        // Another instance claimed it after us while ours was under way: theirs stands.
        const other = this.elsewhere.get(deviceId);
        if (other && other.epoch > epoch) return this.letGo(deviceId);
        this.elsewhere.delete(deviceId);
        this.mine.set(deviceId, epoch);
        this.cluster.broadcast('owner', { deviceId, epoch });
      })
      // Redis away: the device stays here; the claim is made again when Redis is back.
      .catch((err: Error) => this.log.debug({ err: err.message, deviceId }, 'device lease not taken'));
  }

  /**
   * Another instance announced something it did for the device (a reading, a change of state):
   * until a claim says otherwise, it is taken to be the owner. Its claim is sent after a round
   * trip to Redis and may be lost where its events were not (Redis going away in between).
   */
  heardOf(deviceId: string, instance: string): void {
    if (!this.mine.has(deviceId) && !this.elsewhere.has(deviceId)) this.elsewhere.set(deviceId, { instance, epoch: 0 });
  }

  private claimedElsewhere(claim: { deviceId: string; epoch: number }, from: string): void {
    const { deviceId, epoch } = claim;
    if (typeof deviceId !== 'string' || typeof epoch !== 'number') return;
    const known = this.elsewhere.get(deviceId);
    if (known && known.epoch > epoch) return;
    const mine = this.mine.get(deviceId);
    // A claim of ours made after theirs (a higher epoch) keeps the device here.
    if (mine !== undefined && mine > epoch) return;
    this.elsewhere.set(deviceId, { instance: from, epoch });
    // Ours still under way: its epoch decides when it comes back.
    if (mine !== undefined && mine > 0) this.letGo(deviceId);
  }

  private letGo(deviceId: string): void {
    this.mine.delete(deviceId);
    this.hooks.released(deviceId);
  }

  /** Renews the leases of the devices this instance owns (every RENEW_MS, from the job list; without it they run out). */
  async renew(): Promise<void> {
    if (this.mine.size === 0 || !this.cluster.connected()) return;
    // Claims that never reached Redis (it was away for our commands only) are made now.
    for (const [deviceId, epoch] of this.mine) if (epoch === 0) this.takeLease(deviceId);
    const claims = [...this.mine].filter(([, epoch]) => epoch > 0);
    const pipeline = this.redis.pipeline();
    for (const [deviceId, epoch] of claims) pipeline.eval(RENEW, 2, leaseKey(deviceId), epochKey(deviceId), `${this.cluster.instanceId}:${epoch}`, LEASE_MS, EPOCH_TTL_MS);
    const results = await pipeline.exec().catch(() => null);
    if (!results) return;
    results.forEach(([err, renewed], i) => {
      const [deviceId, epoch] = claims[i]!;
      // Someone else's lease (we missed their claim) or none left (Redis restarted): claim again or let go.
      if (err || renewed !== 0 || this.mine.get(deviceId) !== epoch) return;
      this.redis
        .get(leaseKey(deviceId))
        .then((holder) => {
          if (this.mine.get(deviceId) !== epoch) return;
          if (holder === null) this.takeLease(deviceId);
          else {
            const { instance, epoch: theirs } = parseLease(holder);
            if (theirs > epoch) this.claimedElsewhere({ deviceId, epoch: theirs }, instance);
          }
        })
        .catch(() => undefined);
    });
  }
}

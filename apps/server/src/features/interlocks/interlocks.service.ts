import {
  INTERLOCK_LIMITS,
  judgeInterlocks,
  type ConditionFacts,
  type Interlock,
  type InterlockCreate,
  type InterlockPatch,
  type InterlockRule,
  type InterlockVerdict,
} from '@agua/shared';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import type { AuditAction } from '../audit/audit.repository';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord } from '../users/users.repository';
import { assertValidInterlock, type DeviceTypeOf } from './interlock-validation';
import { toInterlock, type InterlockRecord, type InterlocksRepository } from './interlocks.repository';

export interface Actor {
  user: UserRecord;
  ip: string;
}

export interface InterlocksServiceDeps {
  repo: InterlocksRepository;
  audit: AuditService;
  bus: EventBus;
  /** Every instance's events (the bus when alone): the bypasses begun or ended anywhere. */
  feed: EventBus;
  /** A device's type; undefined when unknown or retired (a definition may not name it). */
  typeOf: DeviceTypeOf;
  /** Whether a device is known, retired ones included (the list's filter). */
  knows(deviceId: string): boolean;
  /** The facts conditions are judged on, now. */
  facts(): ConditionFacts;
  now?: () => number;
}

const person = (u: UserRecord) => ({ id: u.id, username: u.username, name: u.name });

function toRule(r: InterlockRecord): InterlockRule {
  return { id: r.id, name: r.name, mode: r.mode, version: r.version, enabled: r.enabled, conditions: r.conditions, bypass: r.bypass ? { until: iso(r.bypass.untilMs) } : null };
}

/**
 * Interlocks in front of device commands (docs/control.md "Interlocks"): their definitions, the
 * verdict a command meets, and bypasses that end by themselves. Read from the database at every
 * check, so that a change on any instance counts at once.
 */
export class InterlocksService {
  private readonly now: () => number;
  /** Interlocks bypassed now, as the live socket's hello lists them; kept from the bus' events. */
  private readonly bypassed = new Map<string, Interlock>();

  constructor(private readonly d: InterlocksServiceDeps) {
    this.now = d.now ?? Date.now;
    d.feed.on('interlock.updated', (i) => {
      if (i.bypass) this.bypassed.set(i.id, i);
      else this.bypassed.delete(i.id);
    });
    d.feed.on('interlock.removed', ({ id }) => this.bypassed.delete(id));
  }

  async start(): Promise<void> {
    for (const r of await this.d.repo.bypassedNow(this.now())) this.bypassed.set(r.id, toInterlock(r));
  }

  /** Interlocks bypassed now (every signed-in screen shows a banner while one lasts). */
  bypassesNow(): Interlock[] {
    const now = this.now();
    return [...this.bypassed.values()].filter((i) => i.bypass && Date.parse(i.bypass.until) > now);
  }

  async list(deviceId?: string): Promise<Interlock[]> {
    if (deviceId !== undefined && !this.d.knows(deviceId)) throw notFound('DEVICE_NOT_FOUND');
    return (await this.d.repo.list(deviceId)).map(toInterlock);
  }

  async get(id: string): Promise<Interlock> {
    return toInterlock(await this.find(id));
  }

  /** The verdict a device's command meets now: what the command path and the permissive check both ask. */
  async verdict(deviceId: string, command: string): Promise<InterlockVerdict> {
    const rules = command === 'detener' ? [] : (await this.d.repo.of(deviceId, command)).map(toRule);
    return judgeInterlocks(rules, this.d.facts());
  }

  async create(input: InterlockCreate, actor: Actor): Promise<Interlock> {
    const values = { deviceId: input.deviceId, command: input.command, name: input.name.trim(), conditions: input.conditions };
    assertValidInterlock(values, this.d.typeOf);
    if ((await this.d.repo.count(values.deviceId, values.command)) >= INTERLOCK_LIMITS.perCommandMax) {
      throw unprocessable('INTERLOCK_INVALID', { field: 'command', reason: `Como mucho ${INTERLOCK_LIMITS.perCommandMax} enclavamientos por comando.` });
    }
    const now = this.now();
    const record: InterlockRecord = { id: newId('ilk'), ...values, mode: input.mode, enabled: input.enabled ?? true, version: 1, bypass: null, createdAtMs: now, updatedAtMs: now };
    await this.d.repo.insert(record);
    return this.changed(record, 'interlock.created', actor, { deviceId: record.deviceId, command: record.command, mode: record.mode });
  }

  async update(id: string, patch: InterlockPatch, actor: Actor): Promise<Interlock> {
    const before = await this.find(id);
    if (patch.version !== before.version) throw conflict('VERSION_CONFLICT', { version: before.version });
    const next: InterlockRecord = {
      ...before,
      command: patch.command ?? before.command,
      name: patch.name?.trim() ?? before.name,
      conditions: patch.conditions ?? before.conditions,
      mode: patch.mode ?? before.mode,
      enabled: patch.enabled ?? before.enabled,
      version: before.version + 1,
      updatedAtMs: this.now(),
    };
    assertValidInterlock(next, this.d.typeOf);
    await this.store(next, before.version);
    const changes = (['command', 'name', 'conditions', 'mode', 'enabled'] as const).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
    return this.changed(next, 'interlock.updated', actor, { changes, version: next.version });
  }

  async remove(id: string, actor: Actor): Promise<void> {
    const before = await this.find(id);
    if (!(await this.d.repo.delete(id))) throw notFound('INTERLOCK_NOT_FOUND');
    this.d.bus.emit('interlock.removed', { id });
    await this.audit('interlock.deleted', actor, before, { name: before.name, deviceId: before.deviceId, command: before.command });
  }

  /** A bypass (again: it replaces the one there is) for 1–720 minutes, with the reason why. */
  async bypass(id: string, minutes: number, comment: string, actor: Actor): Promise<Interlock> {
    if (!Number.isInteger(minutes) || minutes < INTERLOCK_LIMITS.bypassMinutesMin || minutes > INTERLOCK_LIMITS.bypassMinutesMax) {
      throw unprocessable('INVALID_VALUE', { field: 'minutes', min: INTERLOCK_LIMITS.bypassMinutesMin, max: INTERLOCK_LIMITS.bypassMinutesMax });
    }
    const text = comment.trim();
    if (text.length === 0 || text.length > INTERLOCK_LIMITS.commentMax) throw unprocessable('INVALID_VALUE', { field: 'comment', max: INTERLOCK_LIMITS.commentMax });
    const before = await this.find(id);
    const now = this.now();
    const next: InterlockRecord = { ...before, bypass: { untilMs: now + minutes * 60_000, by: person(actor.user), comment: text }, version: before.version + 1, updatedAtMs: now };
    await this.store(next, before.version);
    return this.changed(next, 'interlock.bypassed', actor, { minutes, until: iso(next.bypass!.untilMs), comment: text });
  }

  /** Ends a bypass before its time; an interlock without one is answered as it is. */
  async endBypass(id: string, actor: Actor): Promise<Interlock> {
    const before = await this.find(id);
    if (!before.bypass) return toInterlock(before);
    const next: InterlockRecord = { ...before, bypass: null, version: before.version + 1, updatedAtMs: this.now() };
    await this.store(next, before.version);
    return this.changed(next, 'interlock.bypass_ended', actor, { reason: 'ended' });
  }

  /** Ends the bypasses whose time is up (a job every second; any instance, one wins each). */
  async expireBypasses(): Promise<void> {
    const now = this.now();
    for (const before of await this.d.repo.expiredBypasses(now)) {
      const next: InterlockRecord = { ...before, bypass: null, version: before.version + 1, updatedAtMs: now };
      if (!(await this.d.repo.replace(next, before.version))) continue;
      this.d.bus.emit('interlock.updated', toInterlock(next));
      await this.d.audit.record({ action: 'interlock.bypass_ended', userId: null, username: null, target: `interlock:${next.id}`, result: 'ok', ip: null, details: { reason: 'expired', deviceId: next.deviceId, command: next.command } });
    }
  }

  /** A device was purged: its interlocks go with it. */
  async forgetDevice(deviceId: string): Promise<void> {
    const gone = await this.d.repo.list(deviceId);
    await this.d.repo.deleteByDevice(deviceId);
    for (const r of gone) this.d.bus.emit('interlock.removed', { id: r.id });
  }

  private async find(id: string): Promise<InterlockRecord> {
    const r = await this.d.repo.find(id);
    if (!r) throw notFound('INTERLOCK_NOT_FOUND');
    return r;
  }

  private async store(next: InterlockRecord, expectedVersion: number): Promise<void> {
    if (!(await this.d.repo.replace(next, expectedVersion))) {
      const now = await this.d.repo.find(next.id);
      if (!now) throw notFound('INTERLOCK_NOT_FOUND');
      throw conflict('VERSION_CONFLICT', { version: now.version });
    }
  }

  private async changed(r: InterlockRecord, action: AuditAction, actor: Actor, details: Record<string, unknown>): Promise<Interlock> {
    const interlock = toInterlock(r);
    this.d.bus.emit('interlock.updated', interlock);
    await this.audit(action, actor, r, details);
    return interlock;
  }

  private async audit(action: AuditAction, actor: Actor, r: InterlockRecord, details: Record<string, unknown>): Promise<void> {
    await this.d.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: `interlock:${r.id}`, result: 'ok', ip: actor.ip, details: { name: r.name, ...details } });
  }
}


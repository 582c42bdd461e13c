import {
  GATE_STATES,
  acceptsCommand,
  can,
  commandSentMessage,
  errorMessage,
  scheduleActiveMessage,
  type ErrorCode,
  type Command,
  type InterlockVerdict,
  type CommandAck,
  type CommandStatus,
  type DeviceCommand,
  type GateState,
} from '@agua/shared';
import { AppError, badRequest, conflict, forbidden, notFound, unprocessable } from '../../lib/errors';
import { localHHMM } from '../../lib/local-clock';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import type { AuditService } from '../audit/audit.service';
import { SOLO, type Placement } from '../../lib/placement';
import { offlineAfterS } from '../devices/device.mapper';
import type { DevicesService } from '../devices/devices.service';
import type { UserRecord } from '../users/users.repository';
import { toCommand, type CommandPageQuery, type CommandRecord, type CommandsRepository, type CommandsTransaction } from './commands.repository';
import type { GateTravelWatch } from './travel-watch';

/** An unacknowledged command is handed out again after this long (docs/protocol.md). */
export const REDELIVER_AFTER_MS = 5_000;

/** How often the leader looks for commands of devices no live instance holds (their instance died). */
const ORPHAN_SCAN_MS = 10_000;

export interface CommandsServiceOptions {
  commandTimeoutS: number;
  /** How long a two-person command waits for its approval (APPROVAL_TIMEOUT_S). */
  approvalTimeoutS: number;
  defaultOfflineAfterS: number;
  /** Which devices' commands this instance runs (several instances); all when alone. */
  placement?: Placement;
  /** How a command reaches a device that holds an MQTT session. */
  mqtt: MqttDelivery;
  /** Several instances: where a command for a device held elsewhere goes; none when alone. */
  router?: CommandRouter | null;
  /** The interlocks (docs/control.md). */
  guard: CommandGuard;
  reauth: Reauthentication;
  /** Schedules holding gates; built after the commands (a Late port, resolved at composition). */
  holds: { get(): ScheduleHolds };
}

/** What a person sends with a command (docs/control.md "One command path"). */
export interface IssueInput {
  command: string;
  comment?: string;
  password?: string;
  takeManual?: boolean;
}

/**
 * A command a person issued on another instance, for a device this one holds. The password never
 * crosses between instances: the instance that received it says whether it was right.
 */
export interface RemoteIssue {
  userId: string;
  deviceId: string;
  command: string;
  comment?: string;
  /** Whether the password given was the user's; absent when none was given. */
  passwordOk?: boolean;
  takeManual?: boolean;
  ip: string;
}

/** An approval or rejection made on another instance, for a device this one holds. */
export interface RemoteApproval {
  userId: string;
  commandId: string;
  comment?: string;
  ip: string;
}

/** The interlocks in front of commands: the verdict a device's command meets now. */
export interface CommandGuard {
  verdict(deviceId: string, command: string): Promise<InterlockVerdict>;
}

/** Re-authentication before a command (a `reauth` interlock), counted as sign-ins are. */
export interface Reauthentication {
  /** Whether the password is the user's; nothing counted. */
  verify(user: UserRecord, password: string): Promise<boolean>;
  /** Counts the outcome as a sign-in would: `429` during a lockout, a wrong one a failure, a right one clears them. */
  settle(user: UserRecord, ip: string, ok: boolean): Promise<void>;
}

/**
 * A schedule holding a gate (docs/control.md "Schedules"): between an `abrir` with a duration and
 * its close-after, a person's abrir/cerrar waits for 'Tomar control manual'.
 */
export interface ScheduleHolds {
  holdOf(deviceId: string): Promise<{ scheduleId: string; name: string; closeAtMs: number } | null>;
  /** A person took the gate (takeManual, or detener): the close-after is cancelled, audited. */
  release(deviceId: string, user: UserRecord, ip: string, how: 'take_manual' | 'detener'): Promise<void>;
}

/** What a schedule's run met: its command sent, or the refusal that makes it skipped. */
export type ScheduledIssue = { sent: true; commandId: string } | { sent: false; reason: { code: string; message: string } } | { sent: false; reason: null };

/** The answer to a command accepted: sent, or waiting for a second person's approval. */
export interface IssueResult {
  message: string;
  commandId: string;
  status?: 'awaiting_approval';
}

/** Several instances: a command goes to the instance that holds its device (ADR 013). */
export interface CommandRouter {
  /** The live instance that holds the device, when it is another one. */
  holderOf(deviceId: string): string | null;
  issueOn(instance: string, request: RemoteIssue): Promise<IssueResult>;
  approveOn(instance: string, request: RemoteApproval): Promise<Command>;
}

/** How commands reach a device that holds an MQTT session. */
export interface MqttDelivery {
  isConnected(deviceId: string): boolean;
  deliver(deviceId: string, command: DeviceCommand): Promise<void>;
}

type Waiter = (commands: DeviceCommand[]) => void;

/**
 * The command lifecycle (docs/protocol.md "Commands"): pending → delivered → succeeded | failed |
 * timed_out (or superseded by detener). One command in flight per device; kept in memory while
 * in flight, stored at every step.
 */
export class CommandsService {
  private readonly inFlight = new Map<string, CommandRecord>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly mqtt: MqttDelivery;
  private readonly router: CommandRouter | null;
  private readonly placement: Placement;
  private lastOrphanScanMs = 0;

  constructor(
    private readonly repo: CommandsRepository,
    private readonly devices: DevicesService,
    private readonly bus: EventBus,
    private readonly audit: AuditService,
    private readonly travel: GateTravelWatch,
    private readonly opts: CommandsServiceOptions,
  ) {
    this.placement = opts.placement ?? SOLO;
    this.mqtt = opts.mqtt;
    this.router = opts.router ?? null;
  }

  /** Loads commands left in flight by a previous run; `tick` then runs every second as a background job. */
  async start(): Promise<void> {
    for (const c of await this.repo.findInFlight()) if (this.placement.runsTimersOf(c.deviceId)) this.inFlight.set(c.deviceId, c);
    this.travel.start();
    // Disabled, key rotated or retired: a long poll held with the old standing ends now (answered
    // []), so that no later command reaches it.
    this.bus.on('device.revoked', ({ deviceId }) => {
      for (const w of [...(this.waiters.get(deviceId) ?? [])]) w([]);
    });
    await this.tick();
  }

  stop(): void {
    this.travel.stop();
    for (const set of this.waiters.values()) for (const w of set) w([]);
    this.waiters.clear();
  }

  /** This instance now holds the device: its command in flight (issued wherever) is run from here. */
  async adopt(deviceId: string): Promise<void> {
    const [c] = await this.repo.findInFlight(deviceId);
    if (c && this.placement.owns(deviceId) && !this.inFlight.has(deviceId)) this.inFlight.set(deviceId, c);
  }

  /** Another instance holds the device now: it runs the command in flight; a long poll held here ends. */
  release(deviceId: string): void {
    this.inFlight.delete(deviceId);
    for (const w of [...(this.waiters.get(deviceId) ?? [])]) w([]);
  }

  /** Whether commands can exist for this id: a device, retired ones included (not purged ones). */
  knowsDevice(deviceId: string): boolean {
    return this.devices.get(deviceId) !== undefined;
  }

  async findById(id: string): Promise<Command | null> {
    const c = await this.repo.findById(id);
    return c ? toCommand(c) : null;
  }

  /** A page of stored commands, newest first (the list route). */
  page(q: CommandPageQuery): Promise<CommandRecord[]> {
    return this.repo.page(q);
  }

  mayIssue(user: UserRecord): boolean {
    return can(user, 'write');
  }

  /** Refuses (403, audited) a user without write, before anything else is looked at. */
  async assertMayIssue(user: UserRecord, deviceId: string, command: unknown, ip: string): Promise<void> {
    if (can(user, 'write')) return;
    const named = typeof command === 'string' ? command.slice(0, 32) : null;
    await this.audit.record({ action: 'command.refused', userId: user.id, username: user.username, target: `device:${deviceId}`, result: 'denied', ip, details: { command: named, code: 'FORBIDDEN' } });
    throw forbidden();
  }

  /**
   * Issues a command for a user, checked in docs/control.md's order; every refusal is audited. A
   * device held by another instance gets it there (`routed`: this call came from another instance).
   */
  async issue(user: UserRecord, deviceId: string, input: IssueInput | RemoteIssue, ip: string, routed = false): Promise<IssueResult> {
    const { command } = input;
    const refuse = this.refuser(user, deviceId, ip, { command });
    if (!can(user, 'write')) return refuse(forbidden());
    const device = this.devices.get(deviceId);
    if (!device || device.retiredAtMs !== null) return refuse(notFound('DEVICE_NOT_FOUND'));
    if (!acceptsCommand(device.type, command)) return refuse(unprocessable('COMMAND_INVALID', { allowed: device.type === 'motorized_gate' ? ['abrir', 'cerrar', 'detener'] : ['read', 'restart'] }));
    const comment = input.comment?.trim() ? input.comment.trim() : null;
    // The instance holding the device runs its commands: it checks the rest and audits there.
    const holder = routed ? null : (this.router?.holderOf(deviceId) ?? null);
    if (holder !== null) {
      const given = 'password' in input && input.password !== undefined ? input.password : undefined;
      const passwordOk = given === undefined ? undefined : await this.opts.reauth.verify(user, given);
      return this.router!.issueOn(holder, {
        userId: user.id,
        deviceId,
        command,
        ...(comment !== null ? { comment } : {}),
        ...(passwordOk !== undefined ? { passwordOk } : {}),
        ...(input.takeManual ? { takeManual: true } : {}),
        ip,
      });
    }
    if (!device.enabled || !this.devices.isOnline(deviceId)) return refuse(new AppError(409, 'DEVICE_OFFLINE'));
    const verdict = await this.opts.guard.verdict(deviceId, command);
    if (!verdict.allowed) return refuse(new AppError(409, 'INTERLOCKED', { reasons: verdict.reasons }), verdict.failedIds);
    if (verdict.requires.comment && comment === null) return refuse(unprocessable('COMMENT_REQUIRED', { reasons: verdict.reasons }), verdict.failedIds);
    if (verdict.requires.password) await this.reauthenticate(user, input, ip, verdict, refuse);
    const hold = command === 'abrir' || command === 'cerrar' || command === 'detener' ? await this.opts.holds.get().holdOf(deviceId) : null;
    if (hold && command !== 'detener' && !input.takeManual) {
      const message = scheduleActiveMessage(hold.name, localHHMM(hold.closeAtMs));
      return refuse(new AppError(409, 'SCHEDULE_ACTIVE', { scheduleId: hold.scheduleId, name: hold.name, closeAt: iso(hold.closeAtMs) }, undefined, message));
    }
    const current = this.inFlight.get(deviceId);
    if (current && command !== 'detener') return refuse(new AppError(409, 'COMMAND_IN_PROGRESS', { commandId: current.id }));

    const now = Date.now();
    const record = newCommandRecord(now, {
      deviceId,
      command,
      status: verdict.requires.approval ? 'awaiting_approval' : 'pending',
      issuedBy: { id: user.id, username: user.username, name: user.name },
      comment,
      approvalExpiresAtMs: verdict.requires.approval ? now + this.opts.approvalTimeoutS * 1000 : null,
      overrides: verdict.overrides,
      scheduleId: null,
    });
    // A later command accepted for the device supersedes one waiting for approval.
    await this.supersedeAwaiting(deviceId, now);
    // A person took the gate from its schedule: the planned close-after is cancelled.
    if (hold) await this.opts.holds.get().release(deviceId, user, ip, command === 'detener' ? 'detener' : 'take_manual');
    if (record.status === 'awaiting_approval') {
      await this.repo.insert(record);
      await this.devices.setLastCommand(toCommand(record));
      this.bus.emit('command.updated', toCommand(record));
      await this.auditIssued(record, user, ip);
      return { message: `Comando "${command}" en espera de aprobación`, commandId: record.id, status: 'awaiting_approval' };
    }
    if (current) await this.finish(current, 'superseded', null, now);
    await this.send(record, now);
    await this.auditIssued(record, user, ip);
    return { message: commandSentMessage(command), commandId: record.id };
  }

  /** The issuer's password, when an interlock demands it: missing, wrong (counted as a sign-in failure) or right. */
  private async reauthenticate(user: UserRecord, input: IssueInput | RemoteIssue, ip: string, verdict: InterlockVerdict, refuse: (err: AppError, ids?: string[]) => Promise<never>): Promise<void> {
    const ok = 'passwordOk' in input && input.passwordOk !== undefined ? input.passwordOk : 'password' in input && input.password !== undefined ? await this.opts.reauth.verify(user, input.password) : undefined;
    if (ok === undefined) return void (await refuse(unprocessable('REAUTH_REQUIRED', { reasons: verdict.reasons }), verdict.failedIds));
    try {
      await this.opts.reauth.settle(user, ip, ok);
    } catch (err) {
      return void (await refuse(err as AppError, verdict.failedIds));
    }
    if (!ok) await refuse(unprocessable('REAUTH_FAILED'), verdict.failedIds);
  }

  /**
   * Sends a command now: in flight, stored (by `store` when the write goes with another one), shown,
   * and handed to the device at once if it listens.
   */
  private async send(record: CommandRecord, now: number, store?: (r: CommandRecord) => Promise<void>): Promise<void> {
    const device = this.devices.get(record.deviceId)!;
    // A gate stopped on purpose is not a gate that failed to arrive.
    if (record.command === 'detener') this.travel.stopped(record.deviceId);
    // A device that only posts picks commands up with its next reading: its own offline timeout
    // is how long that may take (docs/protocol.md "Commands").
    const listening = this.devices.hasOpenConnection(record.deviceId);
    const timeoutS = listening ? this.opts.commandTimeoutS : offlineAfterS(device, this.opts.defaultOfflineAfterS);
    record.expiresAtMs = now + timeoutS * 1000;
    if (record.status === 'awaiting_approval') {
      record.status = 'pending';
      if (!(await this.repo.leaveAwaiting(record))) throw conflict('COMMAND_NOT_AWAITING_APPROVAL');
    } else {
      await (store ?? ((r) => this.repo.insert(r)))(record);
    }
    this.inFlight.set(record.deviceId, record);
    await this.devices.setLastCommand(toCommand(record));
    this.bus.emit('command.updated', toCommand(record));
    await this.push(record.deviceId, now);
  }

  /**
   * A schedule's command, through the same checks as a person's (docs/control.md "Schedules"). A
   * schedule gives no comment, password or approval: any failed interlock, an offline, disabled or
   * busy gate makes its run skipped, the refusal its reason. `claim` stores the run in the
   * transaction that stores the command: false when it was claimed already (then nothing is sent).
   */
  async issueForSchedule(deviceId: string, command: string, scheduleId: string, claim: (tx: CommandsTransaction, commandId: string) => Promise<boolean>): Promise<ScheduledIssue> {
    const device = this.devices.get(deviceId);
    const refused = (code: ErrorCode, message: string = errorMessage(code)): ScheduledIssue => ({ sent: false, reason: { code, message } });
    if (!device || device.retiredAtMs !== null) return refused('DEVICE_NOT_FOUND');
    if (!device.enabled || !this.devices.isOnline(deviceId)) return refused('DEVICE_OFFLINE');
    const verdict = await this.opts.guard.verdict(deviceId, command);
    if (verdict.mode !== null) return refused('INTERLOCKED', verdict.reasons[0]!.message);
    const current = this.inFlight.get(deviceId);
    if (current) return refused('COMMAND_IN_PROGRESS');
    const now = Date.now();
    const record = newCommandRecord(now, { deviceId, command, status: 'pending', issuedBy: null, comment: null, approvalExpiresAtMs: null, overrides: verdict.overrides, scheduleId });
    let claimed = true;
    await this.supersedeAwaiting(deviceId, now);
    await this.send(record, now, (r) =>
      this.repo.transaction(async (db) => {
        await this.repo.insert(r, db);
        claimed = await claim(db, r.id);
        if (!claimed) throw new ClaimTaken();
      }),
    ).catch((err: unknown) => {
      if (!(err instanceof ClaimTaken)) throw err;
    });
    if (!claimed) return { sent: false, reason: null };
    await this.auditIssued(record, null, null);
    return { sent: true, commandId: record.id };
  }

  /** `command.issued`, by a person or (no user, no address) by a schedule. */
  private async auditIssued(c: CommandRecord, user: UserRecord | null, ip: string | null): Promise<void> {
    await this.audit.record({
      action: 'command.issued',
      userId: user?.id ?? null,
      username: user?.username ?? null,
      target: `device:${c.deviceId}`,
      result: 'ok',
      ip,
      details: { command: c.command, commandId: c.id, status: c.status, comment: c.comment, overrides: c.overrides, scheduleId: c.scheduleId },
    });
  }

  /**
   * A second person approves a two-person command (docs/control.md "Two persons"): never its
   * issuer. The device's state is judged again; a refusal answers the approver and the command
   * waits on.
   */
  async approve(user: UserRecord, commandId: string, comment: string | undefined, ip: string, routed = false): Promise<Command> {
    const c = await this.awaiting(user, commandId, true);
    const holder = routed ? null : (this.router?.holderOf(c.deviceId) ?? null);
    if (holder !== null) return this.router!.approveOn(holder, { userId: user.id, commandId, ...(comment !== undefined ? { comment } : {}), ip });
    const refuse = this.refuser(user, c.deviceId, ip, { command: c.command, commandId, approval: true });
    const device = this.devices.get(c.deviceId);
    if (!device || device.retiredAtMs !== null || !device.enabled || !this.devices.isOnline(c.deviceId)) return refuse(new AppError(409, 'DEVICE_OFFLINE'));
    const verdict = await this.opts.guard.verdict(c.deviceId, c.command);
    if (!verdict.allowed) return refuse(new AppError(409, 'INTERLOCKED', { reasons: verdict.reasons }), verdict.failedIds);
    const current = this.inFlight.get(c.deviceId);
    if (current) return refuse(new AppError(409, 'COMMAND_IN_PROGRESS', { commandId: current.id }));
    const now = Date.now();
    c.approvedBy = { id: user.id, username: user.username, name: user.name };
    c.approvedAtMs = now;
    await this.send(c, now);
    await this.audit.record({
      action: 'command.approved',
      userId: user.id,
      username: user.username,
      target: `device:${c.deviceId}`,
      result: 'ok',
      ip,
      details: { command: c.command, commandId, issuedBy: c.issuedBy?.username ?? null, comment: comment?.trim() || null },
    });
    return toCommand(c);
  }

  /** A refusal of a person's command or approval: audited `command.refused` with its code and the interlocks that failed, then thrown. */
  private refuser(user: UserRecord, deviceId: string, ip: string, details: Record<string, unknown>) {
    return async (err: AppError, interlockIds?: string[]): Promise<never> => {
      await this.audit.record({
        action: 'command.refused',
        userId: user.id,
        username: user.username,
        target: `device:${deviceId}`,
        result: 'denied',
        ip,
        details: { ...details, code: err.code, ...(interlockIds ? { interlockIds } : {}) },
      });
      throw err;
    };
  }

  /** Any user with write, the issuer included, rejects a two-person command: it is never sent. */
  async reject(user: UserRecord, commandId: string, comment: string | undefined, ip: string): Promise<Command> {
    const c = await this.awaiting(user, commandId, false);
    const now = Date.now();
    c.status = 'rejected';
    c.completedAtMs = now;
    c.message = comment?.trim() || null;
    if (!(await this.repo.leaveAwaiting(c))) throw conflict('COMMAND_NOT_AWAITING_APPROVAL');
    await this.publishChange(c);
    await this.audit.record({ action: 'command.rejected', userId: user.id, username: user.username, target: `device:${c.deviceId}`, result: 'ok', ip, details: { command: c.command, commandId, comment: c.message } });
    return toCommand(c);
  }

  /** A two-person command still waiting; its issuer may not approve it. */
  private async awaiting(user: UserRecord, commandId: string, approving: boolean): Promise<CommandRecord> {
    if (!can(user, 'write')) throw forbidden();
    const c = await this.repo.findById(commandId);
    if (!c) throw notFound('COMMAND_NOT_FOUND');
    if (approving && c.issuedBy?.id === user.id) throw forbidden('SELF_APPROVAL');
    if (c.status !== 'awaiting_approval') throw conflict('COMMAND_NOT_AWAITING_APPROVAL', { status: c.status });
    return c;
  }

  /** Two-person commands of a device are superseded by a later command accepted for it. */
  private async supersedeAwaiting(deviceId: string, now: number): Promise<void> {
    for (const c of await this.repo.findAwaiting({ deviceId })) await this.endAwaiting(c, 'superseded', now);
  }

  /** Two-person commands left without approval for APPROVAL_TIMEOUT_S expire (any instance; one wins each). */
  private async expireAwaiting(now: number): Promise<void> {
    for (const c of await this.repo.findAwaiting({ expiredBy: now })) {
      if (await this.endAwaiting(c, 'expired', now)) {
        await this.audit.record({ action: 'command.expired', userId: c.issuedBy?.id ?? null, username: c.issuedBy?.username ?? null, target: `device:${c.deviceId}`, result: 'ok', ip: null, details: { command: c.command, commandId: c.id } });
      }
    }
  }

  private async endAwaiting(c: CommandRecord, status: 'superseded' | 'expired', now: number): Promise<boolean> {
    c.status = status;
    c.completedAtMs = now;
    if (!(await this.repo.leaveAwaiting(c))) return false;
    await this.publishChange(c);
    return true;
  }

  /** Hands out the device's waiting command (HTTP: long poll, telemetry answer); marks it delivered. */
  async handOut(deviceId: string, now = Date.now()): Promise<DeviceCommand[]> {
    const c = this.inFlight.get(deviceId);
    if (!c || now >= c.expiresAtMs) return [];
    if (c.handedOutAtMs !== null && now - c.handedOutAtMs < REDELIVER_AFTER_MS) return [];
    await this.markHandedOut(c, now);
    return [toDeviceCommand(c)];
  }

  /** Waits up to waitMs for a command for the device (HTTP long poll). */
  async longPoll(deviceId: string, waitMs: number, signal: AbortSignal): Promise<DeviceCommand[]> {
    const ready = await this.handOut(deviceId);
    if (ready.length > 0 || waitMs === 0) return ready;
    this.devices.connection(deviceId, 1, 'poll');
    try {
      return await new Promise<DeviceCommand[]>((resolve) => {
        const set = this.waiters.get(deviceId) ?? new Set<Waiter>();
        this.waiters.set(deviceId, set);
        const done = (cmds: DeviceCommand[]) => {
          clearTimeout(timer);
          set.delete(done);
          signal.removeEventListener('abort', onAbort);
          resolve(cmds);
        };
        const onAbort = () => done([]);
        const timer = setTimeout(() => done([]), waitMs);
        signal.addEventListener('abort', onAbort);
        set.add(done);
      });
    } finally {
      this.devices.connection(deviceId, -1, 'poll');
    }
  }

  /**
   * An acknowledgement over MQTT: the same body as over HTTP, which names no command, so it is
   * for the device's command in flight (there is at most one); an `id` (or `commandId`) in the
   * body names one explicitly. With nothing in flight it is a late acknowledgement: only the gate
   * state it carries counts.
   */
  async acknowledgeMessage(deviceId: string, body: unknown): Promise<void> {
    const ack = parseAck(body);
    const b = body as Record<string, unknown>;
    const named = b.id ?? b.commandId;
    if (named !== undefined && (typeof named !== 'string' || named.length === 0 || named.length > 100)) {
      throw badRequest('MESSAGE_INVALID', { field: 'id' });
    }
    const commandId = (named as string | undefined) ?? this.inFlight.get(deviceId)?.id;
    if (commandId !== undefined) {
      await this.acknowledge(deviceId, commandId, body);
      return;
    }
    await this.applyReportedState(deviceId, ack);
  }

  /** A late acknowledgement does not change its command, but the gate state it carries is real. */
  private async applyReportedState(deviceId: string, ack: CommandAck): Promise<void> {
    if (ack.state) await this.devices.setGateState(deviceId, ack.state);
  }

  /**
   * A device's acknowledgement (HTTP or MQTT); returns the command's status after it. The device
   * was already marked heard by its transport (key check, MQTT publish).
   */
  async acknowledge(deviceId: string, commandId: string, body: unknown): Promise<CommandStatus> {
    const ack = parseAck(body);
    const live = this.inFlight.get(deviceId);
    const c = live?.id === commandId ? live : await this.repo.findById(commandId);
    if (!c || c.deviceId !== deviceId) throw notFound('COMMAND_NOT_FOUND');
    // A late acknowledgement changes nothing, so it leaves no trace in the audit either: a device
    // repeating one could otherwise write to the append-only trail without end.
    if (c !== live) {
      await this.applyReportedState(deviceId, ack);
      return c.status;
    }
    // Whether the state is a gate's to change is the devices feature's one door to decide.
    await this.finish(c, ack.success ? 'succeeded' : 'failed', ack.message ?? null, Date.now(), ack.state ?? undefined);
    if (ack.success) this.travel.commandTaken(deviceId, c.command);
    return c.status;
  }



  /** Delivers a fresh command at once: a long poll waiting, or the MQTT session. */
  private async push(deviceId: string, now: number): Promise<void> {
    const waiting = this.waiters.get(deviceId);
    if (waiting && waiting.size > 0) {
      const cmds = await this.handOut(deviceId, now);
      const first = [...waiting][0]!;
      first(cmds);
      return;
    }
    await this.publishMqtt(deviceId, now);
  }

  private async publishMqtt(deviceId: string, now: number): Promise<void> {
    const c = this.inFlight.get(deviceId);
    if (!c || !this.mqtt.isConnected(deviceId)) return;
    await this.markHandedOut(c, now);
    await this.mqtt.deliver(deviceId, toDeviceCommand(c)).catch(() => undefined);
  }

  private async markHandedOut(c: CommandRecord, now: number): Promise<void> {
    const first = c.status === 'pending';
    c.handedOutAtMs = now;
    if (first) {
      c.status = 'delivered';
      c.deliveredAtMs = now;
    }
    await this.repo.save(c);
    if (first) await this.publishChange(c);
  }

  /** Ends a command; the gate state its acknowledgement reported goes out in the same device change. */
  private async finish(c: CommandRecord, status: CommandStatus, message: string | null, now: number, gateState?: GateState): Promise<void> {
    c.status = status;
    c.completedAtMs = now;
    c.message = message;
    if (this.inFlight.get(c.deviceId) === c) this.inFlight.delete(c.deviceId);
    await this.repo.save(c);
    await this.publishChange(c, gateState);
    await this.audit.record({
      action: 'command.completed',
      userId: c.issuedBy?.id ?? null,
      username: c.issuedBy?.username ?? null,
      target: `device:${c.deviceId}`,
      result: status === 'succeeded' ? 'ok' : 'failed',
      ip: null,
      details: { commandId: c.id, command: c.command, status, message },
    });
  }

  private async publishChange(c: CommandRecord, gateState?: GateState): Promise<void> {
    const command = toCommand(c);
    this.bus.emit('command.updated', command);
    await this.devices.setLastCommand(command, false, gateState);
  }

  /**
   * Times out expired commands and hands unacknowledged ones out again every 5 s: to a long poll
   * that is waiting (a device that lost its ack and went back to waiting), else over MQTT. A
   * command no path has taken yet goes to an MQTT session that came up after it was issued.
   */
  async tick(): Promise<void> {
    const now = Date.now();
    await this.adoptOrphans(now);
    await this.expireAwaiting(now);
    for (const c of [...this.inFlight.values()]) {
      // Its device moved to another instance, which runs it from now on.
      if (!this.placement.runsTimersOf(c.deviceId)) {
        this.inFlight.delete(c.deviceId);
        continue;
      }
      if (now >= c.expiresAtMs) await this.finish(c, 'timed_out', null, now).catch(() => undefined);
      else if (c.handedOutAtMs === null || now - c.handedOutAtMs >= REDELIVER_AFTER_MS) await this.push(c.deviceId, now).catch(() => undefined);
    }
  }

  /** Commands whose instance died still time out: the instance running the device's timers takes them. */
  private async adoptOrphans(now: number): Promise<void> {
    if (this.placement === SOLO || now - this.lastOrphanScanMs < ORPHAN_SCAN_MS) return;
    this.lastOrphanScanMs = now;
    for (const c of await this.repo.findInFlight()) {
      if (!this.inFlight.has(c.deviceId) && this.placement.runsTimersOf(c.deviceId)) this.inFlight.set(c.deviceId, c);
    }
  }
}

/** A schedule's run was claimed elsewhere first: its command is not stored (the transaction rolls back). */
class ClaimTaken extends Error {}

function toDeviceCommand(c: CommandRecord): DeviceCommand {
  return { id: c.id, command: c.command, issuedAt: iso(c.issuedAtMs), expiresAt: iso(c.expiresAtMs) };
}

/** Validates an acknowledgement body: `success` boolean, optional `message` and gate `state`. */
function parseAck(body: unknown): CommandAck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('MESSAGE_INVALID');
  const b = body as Record<string, unknown>;
  if (typeof b.success !== 'boolean') throw badRequest('MESSAGE_INVALID', { field: 'success' });
  if (b.message !== undefined && b.message !== null && (typeof b.message !== 'string' || b.message.length > 500)) {
    throw unprocessable('VALUE_INVALID', { field: 'message' });
  }
  if (b.state !== undefined && !(GATE_STATES as readonly unknown[]).includes(b.state)) throw unprocessable('VALUE_INVALID', { field: 'state' });
  return {
    success: b.success,
    ...(typeof b.message === 'string' ? { message: b.message } : {}),
    ...(b.state !== undefined ? { state: b.state as GateState } : {}),
  };
}

type NewCommandFields = Pick<CommandRecord, 'deviceId' | 'command' | 'status' | 'issuedBy' | 'comment' | 'approvalExpiresAtMs' | 'overrides' | 'scheduleId'>;

/** A command as first stored: nothing delivered, completed or approved yet. */
function newCommandRecord(now: number, fields: NewCommandFields): CommandRecord {
  return {
    id: newId('cmd'),
    ...fields,
    issuedAtMs: now,
    expiresAtMs: now,
    deliveredAtMs: null,
    handedOutAtMs: null,
    completedAtMs: null,
    message: null,
    approvedBy: null,
    approvedAtMs: null,
  };
}


import { spills1224, type OverflowEvent, type OverflowEventPatch, type OverflowStats } from '@agua/shared';
import { notFound, unprocessable } from '../../lib/errors';
import { iso } from '../../lib/time';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord } from '../users/users.repository';
import type { OverflowEventRecord, OverflowEventsRepository, OverflowPosition, OverflowQuery, PeopleFields } from './overflow-events.repository';

/** The API's view of a stored event (docs/water.md "Overflow events"). */
export function toOverflowEvent(e: OverflowEventRecord): OverflowEvent {
  const endMs = e.endedAtMs ?? e.lastReadingMs;
  return {
    id: e.id,
    deviceId: e.deviceId,
    startedAt: iso(e.startedAtMs),
    endedAt: e.endedAtMs === null ? null : iso(e.endedAtMs),
    durationS: Math.max(0, (endMs - e.startedAtMs) / 1000),
    peakLevelM: e.peakLevelM,
    volumeM3: e.volumeM3,
    method: e.method,
    cause: e.cause,
    notifiedAt: e.notifiedAtMs === null ? null : iso(e.notifiedAtMs),
    notes: e.notes,
  };
}

/** The counts of a set of events (docs/water.md): 12/24 spills per device, summed. */
export function overflowStats(events: readonly OverflowEventRecord[], nowMs: number): OverflowStats {
  const byDevice = new Map<string, OverflowEventRecord[]>();
  for (const e of events) {
    const list = byDevice.get(e.deviceId);
    if (list) list.push(e);
    else byDevice.set(e.deviceId, [e]);
  }
  let counted = 0;
  // An open event spills to its newest reading, not to the wall clock: what the readings show.
  for (const list of byDevice.values()) counted += spills1224(list.map((e) => ({ startedAtMs: e.startedAtMs, endedAtMs: e.endedAtMs ?? e.lastReadingMs })), nowMs);
  const withVolume = events.filter((e) => e.volumeM3 !== null);
  return {
    events: events.length,
    spills1224: counted,
    totalDurationS: events.reduce((sum, e) => sum + toOverflowEvent(e).durationS, 0),
    totalVolumeM3: withVolume.length === 0 ? null : withVolume.reduce((sum, e) => sum + e.volumeM3!, 0),
  };
}

/** Reading and annotating overflow events: the routes' and the reports' one door. */
export class OverflowEventsService {
  constructor(
    private readonly repo: OverflowEventsRepository,
    private readonly audit: AuditService,
    private readonly changed: (event: OverflowEventRecord) => void,
    private readonly now: () => number = Date.now,
  ) {}

  page(q: OverflowQuery, limit: number, after?: OverflowPosition): Promise<OverflowEventRecord[]> {
    return this.repo.page(q, limit, after);
  }

  /** Every event started in the range, oldest first. */
  list(q: OverflowQuery): Promise<OverflowEventRecord[]> {
    return this.repo.all(q);
  }

  async get(id: string): Promise<OverflowEventRecord> {
    const event = await this.repo.get(id);
    if (!event) throw notFound('OVERFLOW_EVENT_NOT_FOUND');
    return event;
  }

  async stats(q: OverflowQuery): Promise<OverflowStats> {
    return overflowStats(await this.repo.all(q), this.now());
  }

  /** Events started per range (the daily totals' `overflowEvents`). */
  countsStarted(deviceId: string, ranges: readonly { fromMs: number; toMs: number }[]): Promise<number[]> {
    return this.repo.countsStarted(deviceId, ranges);
  }

  /** What people record of an event: its cause, notes and when the regulator was told (audited). */
  async annotate(id: string, patch: OverflowEventPatch, actor: { user: UserRecord; ip: string }): Promise<OverflowEventRecord> {
    const fields: PeopleFields = {};
    if (patch.cause !== undefined) fields.cause = blankToNull(patch.cause);
    if (patch.notes !== undefined) fields.notes = blankToNull(patch.notes);
    if (patch.notifiedAt !== undefined) {
      const ms = patch.notifiedAt === null ? null : Date.parse(patch.notifiedAt);
      if (ms !== null && ms > this.now()) throw unprocessable('NOTIFIED_AT_IN_FUTURE', { field: 'notifiedAt' });
      fields.notifiedAtMs = ms;
    }
    const names = Object.keys(patch);
    const event = names.length === 0 ? await this.repo.get(id) : await this.repo.updatePeople(id, fields, this.now());
    if (!event) throw notFound('OVERFLOW_EVENT_NOT_FOUND');
    if (names.length > 0) {
      await this.audit.record({ action: 'overflow.updated', userId: actor.user.id, username: actor.user.username, target: `overflow:${id}`, result: 'ok', ip: actor.ip, details: { fields: names, deviceId: event.deviceId } });
      this.changed(event);
    }
    return event;
  }
}

function blankToNull(text: string | null): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

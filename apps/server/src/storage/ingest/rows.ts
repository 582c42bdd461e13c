import type { NotificationChannel, NotificationContent, NotificationEvent, ReadingStatus, RecipientKind } from '@agua/shared';
import type { AlarmsTable } from '../schema';

/*
 * The ingest store's own records: what one ingest transaction writes. Features convert their
 * domain objects into these (telemetry its readings, alarms its changes, notifications its outbox
 * entries); the store imports no feature. A new kind of derived data (volumes, overflow events)
 * is one more row type here, one more field of IngestBatch, and one more writer per back-end
 * (docs/decisions/014-ingest-store.md).
 */

/** A reading to store (and to deduplicate by its seq). */
export interface ReadingRow {
  deviceId: string;
  tsMs: number;
  valueNum: number | null;
  valueText: string | null;
  status: ReadingStatus;
  /** What a level sensor sent, where it differs from the level `valueNum` (a distance sensor, a zero offset); else null. */
  rawNum: number | null;
  seq: number | null;
  boot: string;
  receivedMs: number;
  /** False for a reading the server records itself (a travel fault): the device was not heard. */
  fromDevice: boolean;
  /** The newest reading of its device in its message or batch: the one alarms are evaluated on (not stored). */
  newestInMessage?: boolean;
}

/**
 * A device's newest new reading of a commit, as the `devices` row keeps it (current reading,
 * gate state, lastSeen). Derived by the store from the readings: no feature hands it over.
 */
export interface CurrentReadingRow {
  deviceId: string;
  tsMs: number;
  valueNum: number | null;
  valueText: string | null;
  status: ReadingStatus;
  rawNum: number | null;
  /** When the device was heard sending it; null for a reading the server recorded itself (a travel fault). */
  heardMs: number | null;
}

/** A gate's state as the device or the server established it outside a reading (an acknowledgement). */
export interface GateStateRow {
  deviceId: string;
  state: string;
}

/** When a device was last heard (kept in memory by the devices feature, flushed every few seconds). */
export interface LastSeenRow {
  deviceId: string;
  lastSeenMs: number;
}

/** Who a notification is for: a user (e-mail, or push to one of the user's browsers) or a webhook. */
export interface OutboxTargetRow {
  recipientKind: RecipientKind;
  recipientId: string;
  channel: NotificationChannel;
  /** The push subscription, for push; null otherwise. */
  target: string | null;
}

/** A notification row: its cause (the dedupe prefix), whom and what. */
export interface OutboxRow extends OutboxTargetRow {
  /** Prefix of the unique key, e.g. `esc:<alarm>:<round>`; completed with the target. Also the key of its content. */
  cause: string;
  alarmId: string | null;
  event: NotificationEvent;
  content: NotificationContent;
  createdAtMs: number;
}

/** What an alarm change tells people, stored with it: to these targets, or to everyone told of the alarm before. */
export type AlarmNoticeRow = { event: 'raised'; targets: OutboxTargetRow[]; content: NotificationContent } | { event: 'cleared'; content: NotificationContent };

/** An alarm row (inserted or updated), its transition row, and the notice the transition causes. */
export interface AlarmChangeRow {
  alarm: AlarmsTable;
  isNew: boolean;
  transition: { atMs: number; from: string | null; to: string; byJson: string | null; comment: string | null };
  notice: AlarmNoticeRow | null;
}

/** A claim of an outbox row for an attempt: due again at retryAtMs should the attempt never end. */
export interface OutboxClaimRow {
  row: number;
  retryAtMs: number;
}

/** The outcome of one attempt (`row`: the outbox row); `retryAtMs` null: given up. */
export type OutboxOutcomeRow = { row: number; ok: true; atMs: number } | { row: number; ok: false; error: string; retryAtMs: number | null };

/** The unique key of an outbox row: one per cause, recipient, channel and target. */
export const outboxKey = (cause: string, t: OutboxTargetRow): string => `${cause}:${t.recipientKind}:${t.recipientId}:${t.channel}:${t.target ?? ''}`;

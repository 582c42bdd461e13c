import type { Readable } from 'node:stream';

/** A QoS 1 message Aedes keeps for a client until its PUBACK; no messageId until it is sent. */
export interface QueuedPacket {
  topic: string;
  payload: Buffer;
  messageId?: number;
}

/** The part of Aedes' persistence (aedes-persistence 11) that holds each client's QoS 1 queue. */
export interface OutgoingQueues {
  outgoingEnqueue(sub: { clientId: string }, packet: unknown): Promise<void>;
  outgoingEnqueueCombi(subs: Array<{ clientId: string }>, packet: unknown): Promise<void>;
  outgoingStream(client: { id: string }): Readable;
  outgoingClearMessageId(client: { id: string }, packet: QueuedPacket): Promise<unknown>;
}

/**
 * Bounds what one client can make the broker hold: its queue of QoS 1 messages (those in flight
 * and, for a persistent session, those waiting while it is away) keeps the newest `max`; older
 * ones are dropped. Dropping old ones is safe here: the server re-publishes an unacknowledged
 * command every few seconds and a device ignores a command past its `expiresAt`, so the newest
 * copies are the only ones worth delivering.
 */
export function capOutgoingQueues(queues: OutgoingQueues, max: number): void {
  const enqueue = queues.outgoingEnqueue.bind(queues);
  const enqueueCombi = queues.outgoingEnqueueCombi.bind(queues);
  queues.outgoingEnqueue = async (sub, packet) => {
    await enqueue(sub, packet);
    await trim(queues, sub.clientId, max);
  };
  queues.outgoingEnqueueCombi = async (subs, packet) => {
    await enqueueCombi(subs, packet);
    for (const sub of subs) await trim(queues, sub.clientId, max);
  };
}

/** A client's QoS 1 queue, oldest first. */
export async function queuedFor(queues: OutgoingQueues, clientId: string): Promise<QueuedPacket[]> {
  return (await queues.outgoingStream({ id: clientId }).toArray()) as QueuedPacket[];
}

async function trim(queues: OutgoingQueues, clientId: string, max: number): Promise<void> {
  const queue = await queuedFor(queues, clientId);
  // The store removes the first packet with the given messageId. Cleared oldest first, each one
  // is the head by then: in flight it has its own id; waiting ones all have none, head first.
  for (const oldest of queue.slice(0, Math.max(0, queue.length - max))) {
    await queues.outgoingClearMessageId({ id: clientId }, oldest);
  }
}

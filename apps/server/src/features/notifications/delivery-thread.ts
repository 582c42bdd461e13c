import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { startWorker } from '../../lib/worker-thread';
import { DeliveryError, PermanentDeliveryError, type Message } from './channels/channel';
import { SubscriptionGoneError } from './channels/push-channel';
import type { DeliveryResponse, DeliveryThreadData, Recipient } from './delivery.protocol';

type Pending = { resolve: () => void; reject: (err: Error) => void };

/**
 * Sending on a thread of its own (delivery.worker.ts), as the sender sees it: `send` resolves
 * when the receiver took the notification, and rejects with the channel's kind of failure. A
 * thread that dies fails what it had under way (those attempts are retried) and the next send
 * starts a new one.
 */
export class DeliveryThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly data: DeliveryThreadData,
    private readonly log: FastifyBaseLogger,
  ) {}

  send(recipient: Recipient, messages: Message[]): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, op: 'send', recipient, messages });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const id = this.nextId++;
    await new Promise<void>((resolve) => {
      this.pending.set(id, { resolve, reject: () => resolve() });
      worker.postMessage({ id, op: 'close' });
      setTimeout(resolve, 2000).unref();
    });
    this.worker = null;
    await worker.terminate();
  }

  private start(): Worker {
    const worker = startWorker(import.meta.url, 'delivery.worker', { ...this.data });
    worker.on('message', (res: DeliveryResponse) => this.answered(res));
    worker.on('error', (err) => this.log.error({ err }, 'the notification delivery thread failed'));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const p of this.pending.values()) p.reject(new DeliveryError('el hilo de envío terminó'));
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  private answered(res: DeliveryResponse): void {
    const p = this.pending.get(res.id);
    if (!p) return;
    this.pending.delete(res.id);
    if (res.ok) return p.resolve();
    // The message is the delivery log's words; the raw error rides along as the cause, for the server's log.
    const Kind = res.kind === 'gone' ? SubscriptionGoneError : res.kind === 'permanent' ? PermanentDeliveryError : DeliveryError;
    p.reject(new Kind(res.error, { cause: res.detail }));
  }
}

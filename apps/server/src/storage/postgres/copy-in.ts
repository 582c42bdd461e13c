import type pg from 'pg';
import { markEngineFailure } from '../storage-health';

/**
 * `COPY … FROM STDIN` of data known in full before it starts, sent at once: Query, CopyData and
 * CopyDone in one write. `statements` is one simple-protocol message: the COPY, and possibly other
 * statements before and after it, which run in order (a failure skips the rest). PostgreSQL
 * reads the copy messages once it has answered CopyInResponse, and if a statement fails before
 * that it skips them (the protocol provides for this: a backend outside COPY ignores them), so
 * nothing waits for a round trip and PostgreSQL is woken once. A streaming COPY (pg-copy-streams) waits for CopyInResponse and
 * writes each message apart: on this 2-core machine every such wake-up showed in the profile.
 * Resolves when PostgreSQL is ready again after the COPY; rejects with its error.
 */
export function copyIn(client: pg.ClientBase, statements: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const noop = (): void => undefined;
    // The interface node-postgres drives a query through (its own Query class has the same shape).
    const submittable = {
      submit(connection: { stream: NodeJS.WritableStream & { cork(): void; uncork(): void } }): void {
        const { stream } = connection;
        stream.cork();
        stream.write(queryMessage(statements));
        stream.write(header(0x64, data.length)); // CopyData
        stream.write(data);
        stream.write(header(0x63, 0)); // CopyDone
        stream.uncork();
      },
      handleCopyInResponse: noop,
      handleCommandComplete: noop,
      handleRowDescription: noop,
      handleDataRow: noop,
      handleEmptyQuery: noop,
      handlePortalSuspended: noop,
      handleCopyData: noop,
      // The client forgets the query after an error: ReadyForQuery then reaches no one.
      handleError: (err: Error): void => reject(markEngineFailure(err)),
      handleReadyForQuery: (): void => resolve(),
    };
    void client.query(submittable as unknown as pg.Submittable);
  });
}

function queryMessage(statements: string): Buffer {
  const text = Buffer.from(`${statements}\0`);
  return Buffer.concat([header(0x51, text.length), text]); // Query
}

/** A message's type byte and length (which counts itself, not the type). */
function header(type: number, bodyLength: number): Buffer {
  const buf = Buffer.allocUnsafe(5);
  buf[0] = type;
  buf.writeInt32BE(bodyLength + 4, 1);
  return buf;
}

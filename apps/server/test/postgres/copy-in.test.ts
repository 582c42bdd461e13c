// COPY sent in one write with its data (storage/postgres/copy-in.ts): it stores what it carries,
// and when it fails — before the copy starts or in the middle of its data — it fails alone: the
// connection is usable for the next statement, nothing of the failed COPY is stored.
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyIn } from '../../src/storage/postgres/copy-in';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { tempDataDir } from '../helpers/server';

const HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');

/** Binary COPY rows of one int8 column. */
function rows(values: number[]): Buffer {
  const body = Buffer.alloc(values.length * 14);
  values.forEach((v, i) => {
    body.writeInt16BE(1, i * 14);
    body.writeInt32BE(8, i * 14 + 2);
    body.writeBigInt64BE(BigInt(v), i * 14 + 6);
  });
  return Buffer.concat([HEADER, body, Buffer.from([0xff, 0xff])]);
}

describe('PostgreSQL: COPY in one write', () => {
  const dataDir = tempDataDir();
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: await createTestDatabase(dataDir) });
    await client.connect();
    await client.query('CREATE TABLE t (n bigint NOT NULL CHECK (n >= 0))');
  });
  afterAll(async () => {
    await client?.end();
    await dropTestDatabase(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const stored = async () => (await client.query<{ n: string }>('SELECT n FROM t ORDER BY n')).rows.map((r) => Number(r.n));

  it('stores the rows it carries, in a transaction or on its own', async () => {
    await copyIn(client, 'COPY t (n) FROM STDIN (FORMAT binary)', rows([1, 2, 3]));
    await client.query('BEGIN');
    await copyIn(client, 'COPY t (n) FROM STDIN (FORMAT binary)', rows([2 ** 40]));
    await client.query('COMMIT');
    expect(await stored()).toEqual([1, 2, 3, 2 ** 40]);
  });

  it('a statement that fails before the copy: its data is skipped, the connection goes on', async () => {
    await expect(copyIn(client, 'COPY no_such_table (n) FROM STDIN (FORMAT binary)', rows([7]))).rejects.toThrow(/no_such_table/);
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('data refused in the middle (a constraint, a truncated row): nothing of it stays, the connection goes on', async () => {
    await expect(copyIn(client, 'COPY t (n) FROM STDIN (FORMAT binary)', rows([10, -1, 11]))).rejects.toThrow(/check constraint/);
    await expect(copyIn(client, 'COPY t (n) FROM STDIN (FORMAT binary)', rows([12]).subarray(0, HEADER.length + 9))).rejects.toThrow();
    await client.query('BEGIN');
    await expect(copyIn(client, 'COPY t (n) FROM STDIN (FORMAT binary)', rows([13, -1]))).rejects.toThrow(/check constraint/);
    await client.query('ROLLBACK');
    expect(await stored()).toEqual([1, 2, 3, 2 ** 40]);
    await copyIn(client, 'COPY t (n) FROM STDIN (FORMAT binary)', rows([14]));
    expect(await stored()).toEqual([1, 2, 3, 14, 2 ** 40]);
  });
});

// Engine-neutral SQL for the tests: raw statements through the Kysely instance every storage engine
// has (storage.db), so the same test reads and plants data on SQLite and on PostgreSQL alike.
// Write SQL that means the same on both: `?` placeholders, quoted camelCase aliases (AS "tsMs"),
// COALESCE rather than IFNULL, no json_extract, an explicit ORDER BY id/ts. Numbers PostgreSQL
// returns as bigint/numeric (COUNT(*), BIGINT columns) may arrive as strings: wrap them in Number().
import { CompiledQuery } from 'kysely';
import type { Storage } from '../../src/storage/storage';

/** A test server (its storage) or a storage itself. */
export type HasStorage = { modules: { storage: Storage } } | Storage;

function storageOf(from: HasStorage): Storage {
  return 'modules' in from ? from.modules.storage : from;
}

/** The storage engine's name ('sqlite' or 'postgres'), as a plain string. */
export function sqlEngine(from: HasStorage): string {
  return storageOf(from).engine as string;
}

/**
 * `?` placeholders outside quotes, identifiers and comments become `$1, $2, …` (PostgreSQL).
 * Quoted text ('…', "…" with doubled quotes), `--` and block comments are copied as they are.
 */
export function toDollarPlaceholders(text: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) break;
        if (text[j] === ch) {
          if (text[j + 1] === ch) j += 2;
          else break;
        } else j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '$' && /^\$[A-Za-z_]?\w*\$/.test(text.slice(i)) && !/\w/.test(text[i - 1] ?? '')) {
      // A dollar-quoted body ($$ … $$, $tag$ … $tag$), as PostgreSQL functions are written.
      const tag = /^\$[A-Za-z_]?\w*\$/.exec(text.slice(i))![0];
      const end = text.indexOf(tag, i + tag.length);
      const stop = end === -1 ? text.length : end + tag.length;
      out += text.slice(i, stop);
      i = stop;
    } else if (ch === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop);
      i = stop;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop);
      i = stop;
    } else if (ch === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

async function execute<T>(from: HasStorage, text: string, params: unknown[]): Promise<T[]> {
  const storage = storageOf(from);
  const sql = (storage.engine as string) === 'postgres' ? toDollarPlaceholders(text) : text;
  const result = await storage.db.executeQuery<T>(CompiledQuery.raw(sql, params));
  return result.rows as T[];
}

/** Every row of a query. */
export async function sqlAll<T = Record<string, unknown>>(from: HasStorage, text: string, ...params: unknown[]): Promise<T[]> {
  return execute<T>(from, text, params);
}

/** The first row of a query, or undefined. */
export async function sqlGet<T = Record<string, unknown>>(from: HasStorage, text: string, ...params: unknown[]): Promise<T | undefined> {
  return (await execute<T>(from, text, params))[0];
}

/** The first column of the first row (undefined when there is no row), like better-sqlite3's .pluck().get(). */
export async function sqlValue<T = unknown>(from: HasStorage, text: string, ...params: unknown[]): Promise<T> {
  const row = (await execute<Record<string, unknown>>(from, text, params))[0];
  return (row === undefined ? undefined : Object.values(row)[0]) as T;
}

/** The first column of every row, like better-sqlite3's .pluck().all(). */
export async function sqlColumn<T = unknown>(from: HasStorage, text: string, ...params: unknown[]): Promise<T[]> {
  const rows = await execute<Record<string, unknown>>(from, text, params);
  return rows.map((row) => Object.values(row)[0] as T);
}

/** A statement whose rows, if any, are not needed (INSERT, UPDATE, DELETE, DDL). */
export async function sqlRun(from: HasStorage, text: string, ...params: unknown[]): Promise<void> {
  await execute(from, text, params);
}

import type { Storage } from '../storage';
import { PgReadingsReader, SqliteReadingsReader, type ReadingsReader } from './readings-reader';

/** SQLite's json_array is PostgreSQL's json_build_array: the one word the two dialects disagree on in history's queries. */
export type JsonArrayFunction = 'json_array' | 'json_build_array';

/** What history needs of the engine, chosen here so that no feature branches on it. */
export interface ReadingsAccess {
  /** The export's read path (a prepared statement per engine). */
  reader: ReadingsReader;
  jsonArray: JsonArrayFunction;
  /**
   * Retention the engine's own way: PostgreSQL drops whole day partitions (and makes the days
   * ahead on the same schedule); undefined on SQLite (chunked deletes through the repository).
   */
  pruneBefore: ((cutoffMs: number) => Promise<number>) | undefined;
}

export function readingsAccess(storage: Storage): ReadingsAccess {
  if (storage.engine === 'sqlite') return { reader: new SqliteReadingsReader(storage.sqlite), jsonArray: 'json_array', pruneBefore: undefined };
  return {
    reader: new PgReadingsReader(storage.pool),
    jsonArray: 'json_build_array',
    pruneBefore: async (cutoffMs) => {
      await storage.partitions.makeAhead();
      return storage.partitions.pruneBefore(cutoffMs);
    },
  };
}

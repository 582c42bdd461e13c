import { dropOrphanDatabases } from './postgres';

/** Before and after the PostgreSQL pass: no test database outlives its data folder. */
export async function setup(): Promise<void> {
  await dropOrphanDatabases();
}

export async function teardown(): Promise<void> {
  await dropOrphanDatabases();
}

import { dropOrphanDatabases, PG_ADMIN_URL } from './postgres';

/** Before and after the PostgreSQL pass: no test database outlives its data folder. */
export async function setup(): Promise<void> {
  try {
    await dropOrphanDatabases();
  } catch (err) {
    const where = new URL(PG_ADMIN_URL);
    throw new Error(
      `The PostgreSQL pass needs a PostgreSQL server where it may create databases (TEST_PG_ADMIN_URL, now ${where.host}${where.pathname}): ${(err as Error).message}`,
    );
  }
}

export async function teardown(): Promise<void> {
  await dropOrphanDatabases();
}

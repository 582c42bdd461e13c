import pg from 'pg';

/**
 * A PostgreSQL session advisory lock on a connection of its own: held for as long as that
 * connection lives, so it goes by itself when its process dies (kill -9 included) or PostgreSQL
 * restarts. `lost` is called when a held lock's connection ends.
 */
export class SessionAdvisoryLock {
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly applicationName: string,
    private readonly lost: () => void,
    /** Shared locks are held by many sessions at once; an exclusive one waits for none of them to hold it. */
    private readonly mode: 'exclusive' | 'shared' = 'exclusive',
  ) {}

  held(): boolean {
    return this.client !== null;
  }

  /** Takes the lock if it is free; false when another session holds it. Connection errors are thrown. */
  async tryTake(): Promise<boolean> {
    if (this.client) return true;
    const client = new pg.Client({ connectionString: this.url, application_name: this.applicationName, keepAlive: true });
    client.on('error', () => undefined);
    try {
      await client.connect();
      // A machine that vanishes (power, network) sends no FIN: PostgreSQL then frees the lock only
      // when TCP keep-alive gives up, two hours by default. This session gives up within ~30 s.
      await client.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 4');
      const fn = this.mode === 'shared' ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
      const { rows } = await client.query<{ ok: boolean }>(`SELECT ${fn}(hashtext($1)) AS ok`, [this.key]);
      if (!rows[0]!.ok || this.closed) {
        await client.end();
        return rows[0]!.ok;
      }
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    client.on('end', () => {
      if (this.client !== client) return;
      this.client = null;
      if (!this.closed) this.lost();
    });
    return true;
  }

  async release(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Gathers writes into one transaction, so that one fsync serves many requests: those arriving in
 * the same turn of the event loop, and all those arriving while earlier commits are under way.
 * Up to `maxInFlight` commits are under way at once (the next one handed to the storage while
 * the previous one commits, so the storage never waits for the event loop between two); each
 * caller's promise settles only after its own commit.
 */
export class GroupCommit<T, R> {
  private pending: Array<{ items: T[]; resolve: (r: R[]) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly maxItems = 5000,
    private readonly maxInFlight = 1,
  ) {}

  submit(items: T[]): Promise<R[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Starts commits of the waiting writes while there is room; each one ending makes room again. */
  private pump(): void {
    while (this.pending.length > 0 && this.inFlight < this.maxInFlight) {
      const group = this.takeGroup();
      this.inFlight++;
      void this.commitGroup(group).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The oldest waiting writes, up to maxItems readings (a single larger write goes alone). */
  private takeGroup(): typeof this.pending {
    const group: typeof this.pending = [];
    let count = 0;
    while (this.pending.length > 0 && (group.length === 0 || count + this.pending[0]!.items.length <= this.maxItems)) {
      const next = this.pending.shift()!;
      group.push(next);
      count += next.items.length;
    }
    return group;
  }

  private async commitGroup(group: typeof this.pending): Promise<void> {
    let results: R[];
    try {
      results = await this.commit(group.flatMap((g) => g.items));
    } catch (err) {
      for (const g of group) g.reject(err);
      return;
    }
    let offset = 0;
    for (const g of group) {
      g.resolve(results.slice(offset, offset + g.items.length));
      offset += g.items.length;
    }
  }
}

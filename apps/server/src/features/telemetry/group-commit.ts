/**
 * Gathers writes arriving in the same turn of the event loop into one transaction, so that one
 * fsync serves many requests; each caller's promise settles only after the commit.
 */
export class GroupCommit<T, R> {
  private pending: Array<{ items: T[]; resolve: (r: R[]) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly commit: (items: T[]) => R[],
    private readonly maxItems = 5000,
  ) {}

  submit(items: T[]): Promise<R[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const group: typeof this.pending = [];
      let count = 0;
      while (this.pending.length > 0 && (group.length === 0 || count + this.pending[0]!.items.length <= this.maxItems)) {
        const next = this.pending.shift()!;
        group.push(next);
        count += next.items.length;
      }
      this.commitGroup(group);
    }
  }

  private commitGroup(group: typeof this.pending): void {
    let results: R[];
    try {
      results = this.commit(group.flatMap((g) => g.items));
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

/**
 * Runs async work one at a time per key, in the order it was asked for; different keys run side
 * by side. A failure ends only its own turn. For read-then-write sequences (the next version
 * number of a device's geometry) that must not interleave within one instance.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const turn = previous.then(work, work);
    const tail = turn.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return turn;
  }
}

/**
 * A dependency on a module that is built later: how the wiring in `app.ts` closes a real cycle
 * between modules (ADR 007) — declared in the deps of the module that needs it, resolved in one
 * visible place once the other module exists. Reading it earlier is a wiring mistake: it throws
 * at once rather than leaving a feature silently without what it needs.
 */
export class Late<T> {
  private value: { readonly current: T } | null = null;

  constructor(private readonly name: string) {}

  resolve(value: T): void {
    if (this.value) throw new Error(`${this.name}: resolved twice`);
    this.value = { current: value };
  }

  get(): T {
    if (!this.value) throw new Error(`${this.name}: used before the module that provides it was built`);
    return this.value.current;
  }
}

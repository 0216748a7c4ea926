/**
 * When each part of a country last changed, on a clock the index's countries share: a cached answer is current while
 * none of the parts it was made from changed after it was made. A part is a posting list's key ("topic ai-ml",
 * "place 2950159", "cell 115013"), the week an event starts in ("week 2921"), the long events ("long"); the country
 * as a whole changed at its latest change, whatever that touched.
 */
export class Changes {
  private readonly parts = new Map<string, number>();
  /** When every part last changed at once (a load). */
  private all = 0;
  /** The country's latest change. */
  latest = 0;

  constructor(private readonly clock: { n: number }) {}

  /** A change begins: the clock moves on. */
  tick(): void {
    this.latest = ++this.clock.n;
  }

  /** These parts changed with the latest change. */
  mark(parts: Iterable<string>): void {
    for (const part of parts) this.parts.set(part, this.latest);
  }

  /** Everything changed (a load): what each part's time was no longer matters. */
  reset(): void {
    this.tick();
    this.parts.clear();
    this.all = this.latest;
  }

  /** When a part last changed; without one, the country. */
  at(part?: string): number {
    if (part === undefined) return this.latest;
    return Math.max(this.parts.get(part) ?? 0, this.all);
  }
}

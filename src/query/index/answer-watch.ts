/**
 * Answers that outlive changes which cannot alter them. An answer about a country (a ranked result, and the bodies
 * rendered from it) is made at one version of the country's shard, and every change bumps that version; most
 * changes, though, show or hide events the answer never looked at. A watch names what the answer depends on —
 * `affects(slot)`: whether the event at that slot is one the answer shows or counts — and the shard asks every live
 * watch about each slot a change shows, hides or alters, while the event is in it (before a removal, after an
 * addition). A watch no change affected moves on with the version, and its answer still holds.
 *
 * A shard keeps a bounded number of watches (each costs a check per change): the least recently used one is let go
 * when a new one comes, and its answer then holds only until the next change, as an unwatched answer does.
 */
export class AnswerWatch {
  /** The shard version at which the answer is known to hold; -1 once a change may have altered it. */
  version: number;
  /** When the answer was last asked for (see AnswerWatches.holds), for letting go of the least used. */
  used: number;

  constructor(
    private readonly owner: AnswerWatches,
    readonly affects: (slot: number) => boolean,
    version: number,
    used: number,
  ) {
    this.version = version;
    this.used = used;
  }

  /** Whether the answer still holds: no change since it was made could have altered it. */
  holds(): boolean {
    return this.owner.holds(this);
  }
}

export class AnswerWatches {
  private readonly live = new Set<AnswerWatch>();
  private clock = 0;

  /** `version`: the shard's current version. */
  constructor(
    private readonly version: () => number,
    private readonly capacity = 64,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /** Watches an answer made at the current version. */
  watch(affects: (slot: number) => boolean): AnswerWatch {
    if (this.live.size >= this.capacity) {
      let oldest: AnswerWatch | undefined;
      for (const w of this.live) if (!oldest || w.used < oldest.used) oldest = w;
      this.end(oldest!);
    }
    const watch = new AnswerWatch(this, affects, this.version(), ++this.clock);
    this.live.add(watch);
    return watch;
  }

  holds(watch: AnswerWatch): boolean {
    if (watch.version !== this.version()) return false;
    watch.used = ++this.clock;
    return true;
  }

  /** The event at `slot` is about to be hidden, has just been shown, or shows something new: ends the answers it is in. */
  check(slot: number): void {
    const now = this.version();
    for (const watch of this.live) {
      if (watch.version !== now || watch.affects(slot)) this.end(watch);
    }
  }

  /** The shard's version moved on from `from` after changes every live watch was asked about: they hold still. */
  advance(from: number): void {
    const now = this.version();
    for (const watch of this.live) {
      if (watch.version === from) watch.version = now;
      else this.end(watch);
    }
  }

  /** Ends every answer (the shard was rebuilt). */
  clear(): void {
    for (const watch of this.live) watch.version = -1;
    this.live.clear();
  }

  private end(watch: AnswerWatch): void {
    watch.version = -1;
    this.live.delete(watch);
  }
}

/** A name for what a service remembers for a while, and the type of what it remembers under it. */
export class Remembering<T> {
  /** Never read: it ties the key to the type of its value. */
  declare private readonly value: T;
  /** `madeFrom`: what the value is made from, so that a change of it (`Remembered.changed`) drops the value. */
  constructor(
    readonly name: string,
    readonly madeFrom?: string,
  ) {}
}

/** The sources' state (each feed's and calendar's last read): the pages' freshness line and answers' coverage. */
export const SOURCES_STATE = 'sources-state';

/**
 * What a running service's use cases remember for a while (the pages' freshness line, the cancelled events feeds
 * match), each with when it was made (epoch ms of the service's clock). One per service: two services in one process
 * never share it.
 */
export class Remembered {
  private readonly values = new Map<Remembering<unknown>, { at: number; value: unknown }>();
  /** Moves on at each `changed`: what was made from a remembered value (a kept response) can tell it is stale. */
  generation = 0;

  get<T>(key: Remembering<T>): { at: number; value: T } | undefined {
    // Only `set` writes under `key`, with a T.
    return this.values.get(key) as { at: number; value: T } | undefined;
  }

  set<T>(key: Remembering<T>, at: number, value: T): void {
    this.values.set(key, { at, value });
  }

  /** `what` changed: every value made from it is made again when next asked for. */
  changed(what: string): void {
    for (const key of [...this.values.keys()]) if (key.madeFrom === what) this.values.delete(key);
    this.generation++;
  }
}

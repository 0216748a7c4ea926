/** A name for what a service remembers for a while, and the type of what it remembers under it. */
export class Remembering<T> {
  /** Never read: it ties the key to the type of its value. */
  declare private readonly value: T;
  constructor(readonly name: string) {}
}

/**
 * What a running service's use cases remember for a while (the pages' freshness line, the cancelled events feeds
 * match), each with when it was made (epoch ms of the service's clock). One per service: two services in one process
 * never share it.
 */
export class Remembered {
  private readonly values = new Map<Remembering<unknown>, { at: number; value: unknown }>();

  get<T>(key: Remembering<T>): { at: number; value: T } | undefined {
    // Only `set` writes under `key`, with a T.
    return this.values.get(key) as { at: number; value: T } | undefined;
  }

  set<T>(key: Remembering<T>, at: number, value: T): void {
    this.values.set(key, { at, value });
  }
}

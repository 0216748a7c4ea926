/**
 * A set of slots as bits, 32 to a word: the slots holding one value of a few-valued list (a kind, a format, a price,
 * a seniority, a field), beside its sorted list, or a word's full-text hits. A ranking of several constraints ORs and
 * ANDs these a word at a time (rank-shard.ts, `bySelectivity`): 1,700 words for 55,000 events, where walking the
 * lists would visit each event.
 */
/** A set of slots as bits, as readers outside its owner see it. */
export interface ReadonlySlotBits {
  readonly words: ArrayLike<number>;
  readonly size: number;
  has(slot: number): boolean;
  slots(): number[];
}

export class SlotBits implements ReadonlySlotBits {
  words: Uint32Array;
  /** How many slots it holds. */
  size = 0;

  /** Room for `slots` slots to begin with (it grows as slots are added). */
  constructor(slots = 0) {
    this.words = new Uint32Array(wordsFor(slots));
  }

  has(slot: number): boolean {
    return ((this.words[slot >>> 5] ?? 0) & (1 << (slot & 31))) !== 0;
  }

  add(slot: number): void {
    const at = slot >>> 5;
    if (at >= this.words.length) {
      const grown = new Uint32Array(Math.max(at + 1, Math.ceil(this.words.length * 1.5)));
      grown.set(this.words);
      this.words = grown;
    }
    const bit = 1 << (slot & 31);
    if ((this.words[at]! & bit) === 0) this.size++;
    this.words[at]! |= bit;
  }

  delete(slot: number): void {
    if (!this.has(slot)) return;
    this.words[slot >>> 5]! &= ~(1 << (slot & 31));
    this.size--;
  }

  /** The slots held, ascending. */
  slots(): number[] {
    const out: number[] = [];
    forEachSlot(this.words, (slot) => out.push(slot));
    return out;
  }
}

/** How many words hold `slots` slots. */
export const wordsFor = (slots: number) => (slots + 31) >>> 5;

/** Sets in `bits` the bit of every slot in `items[0 .. length)`. */
export function setAll(bits: Uint32Array, items: ArrayLike<number>, length: number): void {
  for (let i = 0; i < length; i++) {
    const slot = items[i]!;
    bits[slot >>> 5]! |= 1 << (slot & 31);
  }
}

/** ORs `from` into `bits` (a missing set adds nothing). */
export function orInto(bits: Uint32Array, from: ReadonlySlotBits | undefined): void {
  if (!from) return;
  const { words } = from;
  const n = Math.min(words.length, bits.length);
  for (let w = 0; w < n; w++) bits[w]! |= words[w]!;
}

/**
 * Scratch bitsets over a shard's slots, one a constraint of the ranking under way, in one buffer that grows with the
 * shard: a query's own, held by its ShardSearch (shard-search.ts).
 */
export class Lanes {
  private buffer = new Uint32Array(0);

  /** `n` cleared bitsets of room for `slots` slots. */
  take(n: number, slots: number): Uint32Array[] {
    const words = wordsFor(slots);
    const need = n * words;
    if (this.buffer.length < need) this.buffer = new Uint32Array(need);
    else this.buffer.fill(0, 0, need);
    const lanes: Uint32Array[] = [];
    for (let i = 0; i < n; i++) lanes.push(this.buffer.subarray(i * words, (i + 1) * words));
    return lanes;
  }
}

/**
 * Combines bitsets of the same slots a word at a time, leaving them as they are: sets in `inAll` the slots set in
 * every one, and in `allButOne` those set in all but one. Two or more are needed: a slot set in none is then in
 * neither, so unused slots never are.
 */
export function tallyLanes(lanes: readonly Uint32Array[], inAll: Uint32Array, allButOne: Uint32Array): void {
  if (lanes.length < 2) throw new Error('tallyLanes: two bitsets or more');
  const n = lanes.length;
  for (let w = 0; w < inAll.length; w++) {
    // The slots missing from one bitset or more, and from two or more.
    let once = 0;
    let twice = 0;
    for (let i = 0; i < n; i++) {
      const missing = ~lanes[i]![w]!;
      twice |= once & missing;
      once |= missing;
    }
    inAll[w] = ~once;
    allButOne[w] = once & ~twice;
  }
}

/** Calls `visit` with each slot set in `bits`, ascending; with `unless`, only those not set in it. */
export function forEachSlot(bits: ArrayLike<number>, visit: (slot: number) => void, unless?: ArrayLike<number>): void {
  for (let w = 0; w < bits.length; w++) {
    let word = (unless ? bits[w]! & ~unless[w]! : bits[w]!) | 0;
    while (word !== 0) {
      const lowest = word & -word;
      visit((w << 5) + 31 - Math.clz32(lowest));
      word ^= lowest;
    }
  }
}

import MiniSearch, { type SearchOptions } from 'minisearch';
import { PostingList } from './posting-list.js';

/** A term's postings per field: field id → short document id → term frequency (MiniSearch's own layout). */
type FieldTermData = Map<number, Map<number, number>>;

/**
 * A field value's terms as `add` derives them: each processed term once, in order of first occurrence, with its
 * number of occurrences; and the number of distinct raw tokens (MiniSearch's field length).
 */
interface FieldTerms {
  terms: string[];
  counts: number[];
  unique: number;
  /** The terms' posting lists in this field (`lists[i]` for `terms[i]`), valid during the `addAll` call `call`. */
  lists: Postings[];
  call: number;
}

type Postings = Map<number, number> | PostingList;

/**
 * The documents matching a query, as `scoreQuery` gives them: for i below `size`, the document `idAt(i)` matches with
 * MiniSearch's score `scoreAt(i)`, in the fields of `fieldsAt(i)` (bit `1 << fieldId` per field). A view of the
 * scratch that every index shares: valid until the next `scoreQuery` of any of them.
 */
export interface ScoredMatches {
  readonly size: number;
  idAt(i: number): unknown;
  scoreAt(i: number): number;
  fieldsAt(i: number): number;
}

/**
 * Sums per document while a query is scored, by MiniSearch's short document id: an open-addressing table of typed
 * arrays, emptied and reused from call to call. A Map with an object per matching document was most of what scoring a
 * common word allocated, and it is scored again after every write to its shard. `tokens` has bit i for each distinct
 * query token i a document matches.
 */
class Sums {
  /** Short id + 1 at each position; 0 where empty. */
  private keys = new Int32Array(0);
  scores = new Float64Array(0);
  fields = new Int32Array(0);
  tokens = new Int32Array(0);
  /** The positions in use, in the order their documents came. */
  used = new Int32Array(0);
  size = 0;

  /** Empties the table. */
  reset(): void {
    for (let i = 0; i < this.size; i++) this.keys[this.used[i]!] = 0;
    this.size = 0;
  }

  /** The position of a document, added with nothing summed (0, no fields, no tokens) when new. */
  at(shortId: number): number {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    const key = shortId + 1;
    let h = Math.imul(shortId, 0x9e3779b1) >>> 0;
    for (;;) {
      h &= mask;
      const found = this.keys[h]!;
      if (found === key) return h;
      if (found === 0) {
        this.keys[h] = key;
        this.scores[h] = 0;
        this.fields[h] = 0;
        this.tokens[h] = 0;
        this.used[this.size++] = h;
        return h;
      }
      h++;
    }
  }

  /** Gives the arrays back (they grow again on the next call). */
  release(): void {
    this.keys = new Int32Array(0);
    this.scores = new Float64Array(0);
    this.fields = new Int32Array(0);
    this.tokens = new Int32Array(0);
    this.used = new Int32Array(0);
    this.size = 0;
  }

  /** The short id at a position in use. */
  shortIdAt(position: number): number {
    return this.keys[position]! - 1;
  }

  private grow(): void {
    const { keys, scores, fields, tokens, used, size } = this;
    const capacity = Math.max(64, keys.length * 2);
    this.keys = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
    this.fields = new Int32Array(capacity);
    this.tokens = new Int32Array(capacity);
    this.used = new Int32Array(capacity / 2);
    this.size = 0;
    for (let i = 0; i < size; i++) {
      const from = used[i]!;
      const to = this.at(keys[from]! - 1);
      this.scores[to] = scores[from]!;
      this.fields[to] = fields[from]!;
      this.tokens[to] = tokens[from]!;
    }
  }
}

/**
 * The scratch of `scoreQuery`: one token's sums, and the query's. One pair for every index of the process (a shard
 * has one each): scoring is synchronous, and each table grows to the most documents a word matched, megabytes at 100k.
 */
const TOKEN_SUMS = new Sums();
const QUERY_SUMS = new Sums();

/**
 * Gives back the scoring tables of `scoreQuery`, megabytes at 100k once a common word was scored; for an idle
 * process, whose next query grows them again.
 */
export function releaseScoringScratch(): void {
  TOKEN_SUMS.release();
  QUERY_SUMS.release();
}

/** The search options `scoreQuery` takes: those that change which documents match and their scores. */
export type ScoreOptions = Pick<SearchOptions, 'boost' | 'prefix' | 'fuzzy' | 'maxFuzzy' | 'weights'>;

/** Tokens of one query beyond this are left to MiniSearch's own search (a token is a bit in `Scoring.tokens`). */
const MAX_SCORED_TOKENS = 30;

/** How often a field's values recur: the memo is dropped for fields where they do not (titles, mostly). */
interface MemoStats {
  values: Map<string, FieldTerms>;
  hits: number;
  misses: number;
}

/** Distinct field values remembered between `addAll` calls of one bulk load; beyond this the memo starts over. */
const MEMO_LIMIT = 50_000;
/** Field values looked up before the memo of a field may be given up as useless. */
const MEMO_TRIAL = 2_000;

/** Posting lists this long become a `PostingList` (below, a Map is smaller than two typed arrays). */
const COMPACT_FROM = 32;

/**
 * MiniSearch with a faster, smaller `addAll` for bulk loads (the whole catalogue at start-up). It builds the index
 * that calling `add` per document builds, term for term and score for score (test/search-index.test.ts compares
 * serialised indexes and search results), with less work and memory:
 * - a field value seen before (a city, venue, organiser or description recurs thousands of times) is not tokenised
 *   and processed again (fields whose values rarely recur, titles mostly, are not remembered);
 * - each field value's posting lists are found in the radix tree once per call rather than once per occurrence;
 * - long posting lists are `PostingList`s rather than Maps (5 bytes a posting instead of about 37);
 * - documents with the same field lengths share one array of them.
 * At 100k events: about 1 s instead of 5, and 15 MB of postings instead of 120 MB of Maps. `forgetBulkMemo` drops
 * what is remembered between calls when the load is over.
 *
 * `scoreQuery` is MiniSearch's `search` (OR of the query's tokens, BM25 over the fields) for ranking, score for score
 * and bit for bit, at a fraction of the cost: no result object per document with its terms and matches, no stored
 * fields copied, no sort. Each write makes the next prompt asking a word score it again (a write changes BM25's
 * statistics), so this cost is paid under writes over and over (figures in docs/performance.md).
 */
export class BulkMiniSearch<T> extends MiniSearch<T> {
  private memo: MemoStats[] = [];
  private calls = 0;
  private readonly lengthsMemo = new Map<string, number[]>();
  /** Posting lists that could not be compacted (ids not ascending; never seen in practice). */
  private readonly keepAsMap = new WeakSet<Map<number, number>>();
  /**
   * Each field's lengths summed over the documents indexed, so its average (a BM25 statistic) is always exactly this
   * sum over the count: MiniSearch updates the average step by step, and after documents come and go in another
   * order its last bits would differ from those of an index built at once, reordering results whose scores tie.
   */
  private totalLengths: number[] = [];

  override add(document: T): void {
    super.add(document);
    const { extractField, idField } = this._options;
    this.countLengths(this._idToShortId.get(extractField(document, idField))!, 1);
    this.settleAverages();
  }

  override remove(document: T): void {
    const { extractField, idField } = this._options;
    const shortId = this._idToShortId.get(extractField(document, idField));
    if (shortId !== undefined) this.countLengths(shortId, -1);
    super.remove(document);
    this.settleAverages();
  }

  override removeAll(documents?: readonly T[]): void {
    if (documents !== undefined) {
      for (const document of documents) this.remove(document);
      return;
    }
    super.removeAll();
    this.totalLengths = [];
  }

  /**
   * Every document matching `query`, with MiniSearch's score (what `search(query, options)` gives) and the fields it
   * matched. MiniSearch's own steps, in its order, so that each document's score is the same sum of the same
   * products: per token, the exact term, then its prefix and its fuzzy derivations, each field in order; the tokens'
   * scores added in turn and multiplied by the number of distinct tokens matched. The answer is a view of the
   * shared scratch, valid until the next call (see ScoredMatches).
   */
  scoreQuery(query: string, options: ScoreOptions): ScoredMatches {
    const { tokenize, processTerm, fields, searchOptions: defaults } = this._options;
    const tokens = tokenize(query)
      .flatMap((token) => processTerm(token))
      .filter((token): token is string => !!token);
    const sums = QUERY_SUMS;
    sums.reset();
    if (tokens.length > MAX_SCORED_TOKENS) return this.searchScores(query, options);
    const boost = options.boost ?? defaults.boost;
    const boosts = fields.map((field) => boost?.[field] || 1);
    const fieldIds = fields.map((field) => this._fieldIds[field]!);
    const weights = { ...defaults.weights, ...options.weights };
    const bm25 = defaults.bm25;
    const results = TOKEN_SUMS;
    tokens.forEach((term, i) => {
      const bit = 1 << tokens.indexOf(term);
      results.reset();
      const add = (data: FieldTermData | undefined, weight: number) => {
        if (data) this.scoreTerm(data, weight, bit, boosts, fieldIds, bm25, results);
      };
      add(this._index.get(term), 1);
      const fuzzy = typeof options.fuzzy === 'function' ? options.fuzzy(term, i, tokens) : options.fuzzy || false;
      const prefix = typeof options.prefix === 'function' ? options.prefix(term, i, tokens) : options.prefix === true;
      const prefixMatches = prefix ? this._index.atPrefix(term) : undefined;
      let fuzzyMatches: ReturnType<typeof this._index.fuzzyGet> | undefined;
      if (fuzzy) {
        const ratio = fuzzy === true ? 0.2 : fuzzy;
        const maxFuzzy = options.maxFuzzy ?? defaults.maxFuzzy;
        const distance = ratio < 1 ? Math.min(maxFuzzy, Math.round(term.length * ratio)) : ratio;
        if (distance) fuzzyMatches = this._index.fuzzyGet(term, distance);
      }
      if (prefixMatches) {
        for (const [derived, data] of prefixMatches) {
          const distance = derived.length - term.length;
          if (!distance) continue;
          fuzzyMatches?.delete(derived);
          add(data, (weights.prefix * derived.length) / (derived.length + 0.3 * distance));
        }
      }
      if (fuzzyMatches) {
        for (const [derived, [data, distance]] of fuzzyMatches) {
          if (!distance) continue;
          add(data, (weights.fuzzy * derived.length) / (derived.length + distance));
        }
      }
      // The token's sums into the query's, added in turn (a new document's start at 0, and 0 + x is x: its first
      // token's sum as it is).
      for (let k = 0; k < results.size; k++) {
        const from = results.used[k]!;
        const to = sums.at(results.shortIdAt(from));
        sums.scores[to] = sums.scores[to]! + results.scores[from]!;
        sums.fields[to]! |= results.fields[from]!;
        sums.tokens[to]! |= results.tokens[from]!;
      }
    });
    return this.matches(tokens.length > 1);
  }

  /** The query's sums as ScoredMatches; `byQuality`: each score times the number of distinct tokens matched. */
  private matches(byQuality: boolean): ScoredMatches {
    const sums = QUERY_SUMS;
    const ids = this._documentIds;
    return {
      size: sums.size,
      idAt: (i) => ids.get(sums.shortIdAt(sums.used[i]!)),
      scoreAt: (i) => {
        const at = sums.used[i]!;
        if (!byQuality) return sums.scores[at]!;
        let quality = 0;
        for (let bits = sums.tokens[at]!; bits !== 0; bits &= bits - 1) quality++;
        return sums.scores[at]! * (quality || 1);
      },
      fieldsAt: (i) => sums.fields[sums.used[i]!]!,
    };
  }

  /** MiniSearch's `termResults` for one derived term (document boost and term boost 1), into `results`. */
  private scoreTerm(
    data: FieldTermData,
    weight: number,
    bit: number,
    boosts: number[],
    fieldIds: number[],
    bm25: { k: number; b: number; d: number },
    results: Sums,
  ): void {
    const { k, b, d } = bm25;
    const count = this._documentCount;
    for (let f = 0; f < fieldIds.length; f++) {
      const fieldId = fieldIds[f]!;
      const postings = data.get(fieldId) as Postings | undefined;
      if (postings === undefined) continue;
      const fieldWeight = weight * boosts[f]!;
      const fieldBit = 1 << fieldId;
      const average = this._avgFieldLength[fieldId]!;
      // Postings are those of documents indexed: only a discarded document leaves its own behind (MiniSearch drops
      // them while searching), and this class never discards (see `discard`).
      const matching = postings.size;
      const idf = Math.log(1 + (count - matching + 0.5) / (matching + 0.5));
      const visit = (shortId: number, freq: number) => {
        const lengths = this._fieldLength.get(shortId);
        if (lengths === undefined) return;
        const length = lengths[fieldId]!;
        const raw = idf * (d + (freq * (k + 1)) / (freq + k * (1 - b + (b * length) / average)));
        // A new document's sum starts at 0, and 0 + x is x: the first product as it is, as MiniSearch keeps it.
        const at = results.at(shortId);
        results.scores[at] = results.scores[at]! + fieldWeight * raw;
        results.fields[at]! |= fieldBit;
        results.tokens[at] = bit;
      };
      if (postings instanceof PostingList) postings.forEachPosting(visit);
      else for (const [shortId, freq] of postings) visit(shortId, freq);
    }
  }

  /** `scoreQuery` through MiniSearch's own search, for queries of more tokens than it tracks. */
  private searchScores(query: string, options: ScoreOptions): ScoredMatches {
    const sums = QUERY_SUMS;
    for (const r of this.search(query, options)) {
      let fields = 0;
      for (const matched of Object.values(r.match)) for (const f of matched) fields |= 1 << this._fieldIds[f]!;
      const at = sums.at(this._idToShortId.get(r.id)!);
      sums.scores[at] = r.score;
      sums.fields[at] = fields;
    }
    return this.matches(false);
  }

  /** Documents are removed with `remove` here, never discarded: discarding would leave the sums behind. */
  override discard(_id: unknown): void {
    throw new Error('BulkMiniSearch keeps exact statistics: remove documents with remove(document)');
  }

  private countLengths(shortId: number, sign: 1 | -1): void {
    const lengths = this._fieldLength.get(shortId);
    if (!lengths) return;
    for (let f = 0; f < lengths.length; f++) {
      this.totalLengths[f] = (this.totalLengths[f] ?? 0) + sign * (lengths[f] ?? 0);
    }
  }

  private settleAverages(): void {
    const count = this._documentCount;
    for (let f = 0; f < this.totalLengths.length; f++) {
      this._avgFieldLength[f] = count > 0 ? this.totalLengths[f]! / count : 0;
    }
  }

  override addAll(documents: readonly T[]): void {
    const { extractField, stringifyField, fields, idField, storeFields } = this._options;
    if (storeFields && storeFields.length > 0) {
      for (const document of documents) this.add(document);
      return;
    }
    // Posting lists are resolved once per field value and call, and stay the same objects until the call ends (it is
    // synchronous: nothing removes a term meanwhile, vacuuming is async); long Maps become PostingLists at the end.
    const touched = new Map<string, FieldTermData>();
    const call = ++this.calls;
    const fieldIds = fields.map((field) => this._fieldIds[field]!);
    for (const document of documents) {
      const id = extractField(document, idField);
      if (id == null) throw new Error(`MiniSearch: document does not have ID field "${idField}"`);
      if (this._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${id}`);
      const shortId = this._nextId;
      this._idToShortId.set(id, shortId);
      this._documentIds.set(shortId, id);
      this._documentCount += 1;
      this._nextId += 1;
      const lengths: number[] = [];
      for (let f = 0; f < fields.length; f++) {
        const field = fields[f]!;
        const value = extractField(document, field);
        if (value == null) continue;
        const fieldId = fieldIds[f]!;
        const text = stringifyField(value, field);
        let memo = this.memo[fieldId];
        if (!memo) {
          memo = { values: new Map(), hits: 0, misses: 0 };
          this.memo[fieldId] = memo;
        }
        let derived = memo.values.get(text);
        if (derived) {
          memo.hits++;
        } else {
          derived = this.derive(text, field);
          if (++memo.misses > MEMO_TRIAL && memo.misses > memo.hits * 4) {
            memo.values.clear(); // values rarely recur in this field: looking them up costs more than it saves
          } else {
            if (memo.values.size >= MEMO_LIMIT) memo.values.clear();
            memo.values.set(text, derived);
          }
        }
        this.addLength(lengths, fieldId, this._documentCount - 1, derived.unique);
        const { terms: fieldTerms, counts, lists } = derived;
        if (derived.call !== call) {
          for (let t = 0; t < fieldTerms.length; t++) {
            const term = fieldTerms[t]!;
            let data = touched.get(term);
            if (!data) {
              data = this._index.fetch(term, () => new Map());
              touched.set(term, data);
            }
            let list: Postings | undefined = data.get(fieldId);
            if (!list) {
              list = new Map();
              data.set(fieldId, list);
            }
            lists[t] = list;
          }
          derived.call = call;
        }
        // A new document: its postings are new, each set once to its final count (as `add` counting up leaves it).
        for (let t = 0; t < fieldTerms.length; t++) {
          const list = lists[t]!;
          if (list instanceof PostingList) list.append(shortId, counts[t]!);
          else list.set(shortId, counts[t]!);
        }
      }
      if (lengths.length > 0) this._fieldLength.set(shortId, this.sharedLengths(lengths));
    }
    for (const data of touched.values()) {
      for (const [fieldId, list] of data) {
        if (!(list instanceof Map) || list.size < COMPACT_FROM || this.keepAsMap.has(list)) continue;
        const compact = PostingList.from(list);
        if (compact) data.set(fieldId, compact as unknown as Map<number, number>);
        else this.keepAsMap.add(list);
      }
    }
  }

  /** What `add` derives from a field value: its processed terms with their counts, and its field length. */
  private derive(text: string, field: string): FieldTerms {
    const { tokenize, processTerm } = this._options;
    const tokens = tokenize(text, field);
    const counted = new Map<string, number>();
    const count = (t: string) => counted.set(t, (counted.get(t) ?? 0) + 1);
    for (const token of tokens) {
      const p = processTerm(token, field);
      if (Array.isArray(p)) {
        for (const t of p) count(t);
      } else if (p) {
        count(p);
      }
    }
    return {
      terms: [...counted.keys()],
      counts: [...counted.values()],
      unique: new Set(tokens).size,
      lists: [],
      call: 0,
    };
  }

  /** Frees what `addAll` remembers between calls; call when a bulk load is done. */
  forgetBulkMemo(): void {
    this.memo = [];
    this.lengthsMemo.clear();
  }

  /**
   * One array per distinct combination of field lengths, shared by the documents that have it (a few hundred
   * arrays instead of one of 150 bytes per document). MiniSearch writes a document's lengths only while adding it,
   * and this class writes them before sharing.
   */
  private sharedLengths(lengths: number[]): number[] {
    const key = lengths.join(',');
    const shared = this.lengthsMemo.get(key);
    if (shared) return shared;
    if (this.lengthsMemo.size >= MEMO_LIMIT) this.lengthsMemo.clear();
    const exact = lengths.slice();
    this.lengthsMemo.set(key, exact);
    return exact;
  }

  /** MiniSearch's `addFieldLength`, with the average kept as the exact sum over the count (see `totalLengths`). */
  private addLength(lengths: number[], fieldId: number, count: number, length: number): void {
    lengths[fieldId] = length;
    this.totalLengths[fieldId] = (this.totalLengths[fieldId] ?? 0) + length;
    this._avgFieldLength[fieldId] = this.totalLengths[fieldId] / (count + 1);
  }
}

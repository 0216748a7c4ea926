import MiniSearch from 'minisearch';
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

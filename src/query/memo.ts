/**
 * `map`'s value for `key`, made by `make` the first time it is asked for. The map starts over once it holds `limit`
 * keys: the memos this serves (folded organisers, name words, word patterns) hold a few thousand values in practice,
 * and the bound keeps an unusual input from growing one without end.
 */
export function remembered<K, V>(map: Map<K, V>, key: K, limit: number, make: (key: K) => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make(key);
    if (map.size >= limit) map.clear();
    map.set(key, value);
  }
  return value;
}

/** One object for each distinct string, the first seen (see `remembered`): for strings that recur by the thousand. */
export function interned(map: Map<string, string>, value: string, limit: number): string {
  return remembered(map, value, limit, itself);
}
const itself = (value: string): string => value;

/**
 * The memo key of a facet's value, made once (a key built per candidate would be hashed per candidate). Asked for
 * the same value thousands of times in a row (once per candidate), so the last one is at hand without a lookup, and
 * the shard's memo (see CountryShard.memo) recognises the very same string.
 */
export function memoKeys(prefix: string): (value: string) => string {
  const keys = new Map<string, string>();
  const make = (value: string) => `${prefix}|${value}`;
  let lastValue: string | undefined;
  let lastKey = '';
  return (value) => {
    if (value !== lastValue) {
      lastKey = remembered(keys, value, 1_000, make);
      lastValue = value;
    }
    return lastKey;
  };
}

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

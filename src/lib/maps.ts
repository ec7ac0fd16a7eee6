// The memo pattern used across modules (per-account listener sets, per-context pools and caches).

interface MapLike<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value stored under `key`; the first time, `make()`'s, stored. */
export function getOrSet<K, V>(map: MapLike<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

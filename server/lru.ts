/** A map holding at most `max` entries: the least recently used goes first (a Map keeps insertion order). */
export class LruMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  /** The value for `key`, made by `make` when absent; either way it becomes the most recently used. */
  use(key: K, make: () => V): V {
    let v = super.get(key);
    if (v === undefined) v = make();
    else this.delete(key);
    this.set(key, v);
    if (this.size > this.max) this.delete(this.keys().next().value!);
    return v;
  }
}

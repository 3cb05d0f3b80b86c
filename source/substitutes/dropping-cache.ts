// The cache behind the substitutes for ink's own caches, which keep every text for good: a Map emptied whole once it
// holds `limit` entries. Dropping everything is cheaper than LRU bookkeeping, and a frame re-reads its texts at once.
export class DroppingCache<V> {
	private readonly entries = new Map<string, V>();

	constructor(readonly limit: number) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: string): V | undefined {
		return this.entries.get(key);
	}

	set(key: string, value: V): void {
		if (this.entries.size >= this.limit) this.entries.clear();
		this.entries.set(key, value);
	}
}

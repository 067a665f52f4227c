/**
 * A bounded queue with priorities. Full: the oldest item of the lowest priority present goes
 * first (counting the newcomer: a refusal arriving at a queue full of alerts is itself dropped).
 * Delivery order is arrival order; priority only decides what is lost.
 */
export interface Prioritised {
  readonly priority: number;
}

export class BoundedQueue<T extends Prioritised> {
  private readonly items: T[] = [];

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('queue capacity must be ≥ 1');
  }

  get size(): number {
    return this.items.length;
  }

  /** Adds `item`; returns the item dropped to make room (possibly `item` itself), or null. */
  push(item: T): T | null {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return null;
    }
    let victim = -1;
    for (let i = 0; i < this.items.length; i++) {
      const p = (this.items[i] as T).priority;
      if (p <= item.priority && (victim === -1 || p < (this.items[victim] as T).priority)) victim = i;
    }
    if (victim === -1) return item;
    const [dropped] = this.items.splice(victim, 1);
    this.items.push(item);
    return dropped ?? null;
  }

  shift(): T | undefined {
    return this.items.shift();
  }

  /** Empties the queue; returns what was in it. */
  clear(): T[] {
    return this.items.splice(0);
  }
}

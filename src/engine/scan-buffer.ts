/**
 * Where one executed-history scan keeps its pages until the whole scan has been read. A scan
 * that fits in one apply batch (the usual one: the overlap and what arrived since) stays in
 * memory as parsed deals; a larger one (the first scan of an old account) goes to the store's
 * stage (a TEMP table, store/scan-stage.ts) as soon as it outgrows a batch, so memory stays
 * bounded by one batch either way. Both give the same deals in the same order: de-duplicated by
 * deal id (the first copy kept), oldest first (time, then deal id), in chunks of the batch size.
 */
import { dec, toWire } from '../core/decimal.js';
import type { Fill, FillPage } from '../model/fills.js';
import type { Store } from '../store/index.js';

/** Staging form of a deal: JSON with money as decimal strings. */
function encodeFill(d: Fill): string {
  return JSON.stringify({ ...d, amount: toWire(d.amount), price: toWire(d.price), quote: toWire(d.quote), fee: toWire(d.fee) });
}

function decodeFill(payload: string): Fill {
  const o = JSON.parse(payload) as Omit<Fill, 'amount' | 'price' | 'quote' | 'fee'> & { amount: string; price: string; quote: string; fee: string };
  return { ...o, amount: dec(o.amount), price: dec(o.price), quote: dec(o.quote), fee: dec(o.fee) };
}

const byTime = (a: Fill, b: Fill): number => a.timeMs - b.timeMs || a.dealId - b.dealId;

export class ScanBuffer {
  private readonly held = new Map<number, Fill>();
  private staged = false;

  constructor(
    private readonly stage: Store['scanStage'],
    /** Deals per batch, and the most kept in memory. */
    private readonly chunk: number,
  ) {}

  /** Adds a page's deals; returns how many were not held yet. */
  add(fills: readonly Fill[]): number {
    if (!this.staged && this.held.size + fills.length > this.chunk) {
      this.stage.add([...this.held.values()].map((d) => ({ dealId: d.dealId, timeMs: d.timeMs, payload: encodeFill(d) })));
      this.held.clear();
      this.staged = true;
    }
    if (this.staged) return this.stage.add(fills.map((d) => ({ dealId: d.dealId, timeMs: d.timeMs, payload: encodeFill(d) })));
    let added = 0;
    for (const d of fills) {
      if (this.held.has(d.dealId)) continue;
      this.held.set(d.dealId, d);
      added++;
    }
    return added;
  }

  /** The deals oldest first, `chunk` at a time (read lazily from the stage when staged). */
  *batches(): Generator<Fill[]> {
    if (this.staged) {
      for (const rows of this.stage.chunks(this.chunk)) yield rows.map((r) => decodeFill(r.payload));
    } else if (this.held.size > 0) {
      yield [...this.held.values()].sort(byTime);
    }
  }

  /** Empties the stage if this scan used it (every scan ends with nothing staged). */
  clear(): void {
    this.held.clear();
    if (this.staged) this.stage.clear();
    this.staged = false;
  }
}

/** Reads every page of a scan into the buffer; counts requests and deals seen more than once. */
export async function bufferPages(pages: AsyncIterable<FillPage>, buffer: ScanBuffer): Promise<{ pages: number; duplicates: number }> {
  let count = 0;
  let duplicates = 0;
  for await (const page of pages) {
    count++;
    const added = buffer.add(page.fills);
    duplicates += page.repeated + page.fills.length - added;
  }
  return { pages: count, duplicates };
}

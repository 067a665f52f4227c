/**
 * An account's conditional records (OTO and OCO) by id, with the active OCO records of each market
 * kept apart: every price step matches the OCO legs of its market (conditional.ts `runOcos`), and
 * without this index that scan walked every record the account ever had, so a step's cost grew
 * with the run. The index holds each OCO record from the moment it is set, in the order records
 * were set (the map's own order, filtered to the market), and drops a record the first time a scan
 * finds it inactive: a record never becomes active again once ended, so the records a scan visits,
 * and their order, are the ones the full scan's filter kept.
 */
import type { ConditionalRecord, OcoRecord } from './types.js';

export class ConditionalMap extends Map<number, ConditionalRecord> {
  private readonly ocosByMarket = new Map<string, Set<OcoRecord>>();

  override set(id: number, rec: ConditionalRecord): this {
    super.set(id, rec);
    // `Map`'s constructor calls `set` before the field exists (only with initial entries; none here).
    if (rec.type === 'oco' && rec.active && this.ocosByMarket !== undefined) {
      let set = this.ocosByMarket.get(rec.market);
      if (set === undefined) {
        set = new Set();
        this.ocosByMarket.set(rec.market, set);
      }
      set.add(rec);
    }
    return this;
  }

  override delete(id: number): boolean {
    const rec = this.get(id);
    if (rec?.type === 'oco') this.ocosByMarket.get(rec.market)?.delete(rec);
    return super.delete(id);
  }

  override clear(): void {
    this.ocosByMarket.clear();
    super.clear();
  }

  /** The active OCO records of `market`, oldest first (ended ones are dropped as they are met). */
  *activeOcos(market: string): Generator<OcoRecord> {
    const set = this.ocosByMarket.get(market);
    if (set === undefined) return;
    for (const rec of set) {
      if (rec.active) yield rec;
      else set.delete(rec);
    }
  }
}

/**
 * The in-process gateway's account reads (balances, credit line, flex history) kept while what
 * their answer is a function of stands still: a backtest asks for the balances at every equity
 * check, the credit line every minute and the flex history every few minutes, and most answers
 * repeat the last. Each kept answer was made by the full path (the route handler, its wire form,
 * the client's parser); it is handed out again only while the account state that answer reads is
 * the same, compared at the moment of the ask (after the venue's catch-up, as a request would):
 *
 * - balances: the account's balance entries, the same assets in the same order holding the very
 *   same (immutable) decimals: every balance change stores a new decimal;
 * - credit line: no loan configured and the line enabled: the answer is "no active loan", which
 *   no price or balance changes (with a loan, the LTV follows the price: always asked);
 * - flex history: the same query, the line enabled and the same ledger length (the ledger is
 *   only appended to, its records never change).
 *
 * The kept answers are handed out so that a caller cannot change them: a new Map of the kept
 * balances (decimals are immutable), a frozen credit answer, frozen flex pages and records.
 */
import type { Decimal } from '../core/decimal.js';
import type { CreditLineState } from '../model/credit.js';
import type { FlexRecord, FlexRecordQuery } from '../model/flex.js';
import type { Account } from '../simulator/account.js';
import { sameEntries, type Entries } from './kept-entries.js';

const FLEX_QUERIES_KEPT = 8;

function freezePage(page: FlexRecord[]): readonly FlexRecord[] {
  for (const r of page) Object.freeze(r);
  return Object.freeze(page);
}

export class KeptAccountReads {
  private balancesKept: { entries: Entries; map: ReadonlyMap<string, Decimal> } | undefined;
  private noLoan: CreditLineState | undefined;
  /** By query (the flex job asks one, a close's look-up another): at most FLEX_QUERIES_KEPT of them. */
  private readonly flexKept = new Map<string, { ledger: number; pages: readonly (readonly FlexRecord[])[] }>();

  constructor(
    private readonly account: Account,
    /** Brings the venue up to now, as every request does first. */
    private readonly catchUp: () => void,
  ) {}

  /** As `balances`, with the full answer made at once (`full`: the route's answer, not a request's promise). */
  balancesNow(full: () => Map<string, Decimal>): Map<string, Decimal> {
    const kept = this.keptBalances();
    if (kept !== undefined) return kept;
    const map = full();
    // Read after the answer, as `balances` does: the handler answered from these entries.
    return this.keepBalances([...this.account.balances], map);
  }

  async balances(full: () => Promise<Map<string, Decimal>>): Promise<Map<string, Decimal>> {
    const kept = this.keptBalances();
    if (kept !== undefined) return kept;
    const answer = full();
    // The handler has read the balances by now (a request is answered when made); these entries
    // are the ones it answered from.
    const entries = [...this.account.balances];
    return this.keepBalances(entries, await answer);
  }

  /** A copy of the kept balances while the account's entries stand (as of now); else none kept any more. */
  private keptBalances(): Map<string, Decimal> | undefined {
    this.catchUp();
    const kept = this.balancesKept;
    if (kept !== undefined && sameEntries(kept.entries, this.account.balances)) return new Map(kept.map);
    this.balancesKept = undefined;
    return undefined;
  }

  /** Keeps a copy of `map`, answered from `entries`, and hands `map` on. */
  private keepBalances(entries: Entries, map: Map<string, Decimal>): Map<string, Decimal> {
    this.balancesKept = { entries, map: new Map(map) };
    return map;
  }

  async creditLine(full: () => Promise<CreditLineState>): Promise<CreditLineState> {
    const known = this.creditLineKnown();
    if (known !== undefined) return known;
    const constant = this.constantCredit();
    const answer = await full();
    if (constant && !answer.active) this.noLoan = Object.freeze(answer);
    return answer;
  }

  /** The kept "no active loan" while it still stands (as of now: the venue caught up first); undefined: ask. */
  creditLineKnown(): CreditLineState | undefined {
    this.catchUp();
    return this.constantCredit() ? this.noLoan : undefined;
  }

  /** No loan and the line enabled: the answer cannot move. */
  private constantCredit(): boolean {
    return this.account.loan === undefined && this.account.creditLineEnabled;
  }

  /** The pages of `query`, read in full once; a consumer that stops early keeps nothing. */
  async *flexRecords(query: FlexRecordQuery, full: () => AsyncIterable<FlexRecord[]>): AsyncGenerator<FlexRecord[]> {
    this.catchUp();
    const key = this.account.flexEnabled ? JSON.stringify(query) : '';
    const ledger = this.account.flexLedger.length;
    const kept = this.flexKept.get(key);
    if (key !== '' && kept?.ledger === ledger) {
      for (const page of kept.pages) yield page as FlexRecord[];
      return;
    }
    this.flexKept.delete(key);
    const pages: (readonly FlexRecord[])[] = [];
    for await (const page of full()) {
      const frozen = freezePage(page);
      pages.push(frozen);
      yield frozen as FlexRecord[];
    }
    if (key === '' || ledger !== this.account.flexLedger.length) return;
    if (this.flexKept.size >= FLEX_QUERIES_KEPT) this.flexKept.clear();
    this.flexKept.set(key, { ledger, pages });
  }
}

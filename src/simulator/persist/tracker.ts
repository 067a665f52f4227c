/**
 * What changed since the last commit, found without hooks in the matching code:
 * - small state (clock and ids, each market, each account's balances, positions, flex) is
 *   re-encoded and written when its JSON differs from what was last written; an account's nonce
 *   state rides along with its other changes but is no reason to write on its own;
 * - orders and OTO/OCO records are written when new, then watched while they can still change
 *   (an order until FILLED/CANCELLED, a record while active): a terminal order or an inactive
 *   record never changes again (docs/paper-account.md). New ones are found by id: every order
 *   and record takes an id from the venue's sequence, so the ids handed out since the last
 *   commit name exactly the new ones;
 * - deals and flex ledger rows only ever grow: the rows past the last written index are new.
 * The caches move only after the transaction committed, so a failed commit is retried whole by
 * the next one.
 */
import type { Account } from '../account.js';
import type { MarketOptions } from '../options.js';
import type { ConditionalRecord, SimOrder } from '../types.js';
import type { Venue } from '../venue.js';
import { accountSnapshot } from './codec.js';
import { batchSize, emptyBatch, type Batch, type StateDb } from './db.js';
import { encode } from './fields.js';

/** Watched orders / records of one account: id → JSON last written. */
type Watch = Map<number, string>;

interface Caches {
  clock: string;
  markets: Map<string, string>;
  accounts: Map<string, string>;
  orders: Map<string, Watch>;
  conditionals: Map<string, Watch>;
  deals: Map<string, number>;
  ledger: Map<string, number>;
  seq: number;
}

const isFinalOrder = (o: SimOrder): boolean => o.status === 'FILLED' || o.status === 'CANCELLED';
const isFinalRecord = (r: ConditionalRecord): boolean => !r.active;

function watchOf(m: Map<string, Watch>, apiKey: string): Watch {
  let w = m.get(apiKey);
  if (w === undefined) {
    w = new Map();
    m.set(apiKey, w);
  }
  return w;
}

export class StateTracker {
  private c: Caches;
  /** Options of each market as written (rules can change with the configuration between runs). */
  private readonly marketOptions: Map<string, string>;

  constructor(
    private readonly venue: Venue,
    private readonly db: StateDb,
    options: readonly MarketOptions[],
    /** The accounts and markets just restored from `db` (on disk already); null for a new file. */
    restored: { accounts: ReadonlySet<string>; markets: ReadonlySet<string> } | null,
  ) {
    this.marketOptions = new Map(options.map((o) => [o.name, encode(o)]));
    this.c = { clock: '', markets: new Map(), accounts: new Map(), orders: new Map(), conditionals: new Map(), deals: new Map(), ledger: new Map(), seq: venue.saveClock().seq };
    if (restored !== null) this.prime(restored);
  }

  /**
   * Caches as if what was restored had just been written: its small state, its open orders and
   * active records watched. Accounts and markets new to the file are left for the first commit.
   */
  private prime(restored: { accounts: ReadonlySet<string>; markets: ReadonlySet<string> }): void {
    const { caches } = this.collect();
    for (const name of [...caches.markets.keys()]) if (!restored.markets.has(name)) caches.markets.delete(name);
    for (const account of this.venue.accounts.values()) {
      if (!restored.accounts.has(account.apiKey)) {
        caches.accounts.delete(account.apiKey);
        caches.ledger.set(account.apiKey, 0);
        continue;
      }
      const orders = watchOf(caches.orders, account.apiKey);
      for (const o of account.orders.values()) if (!isFinalOrder(o)) orders.set(o.orderId, encode(o));
      const records = watchOf(caches.conditionals, account.apiKey);
      for (const r of account.conditionals.values()) if (!isFinalRecord(r)) records.set(r.id, encode(r));
    }
    this.c = caches;
  }

  /** Writes every change since the last commit in one transaction; a no-op when nothing changed. */
  commit(): void {
    const { batch, caches } = this.collect();
    if (batchSize(batch) > 0) this.db.commit(batch);
    this.c = caches;
  }

  private collect(): { batch: Batch; caches: Caches } {
    const batch = emptyBatch();
    const caches: Caches = {
      ...this.c,
      markets: new Map(this.c.markets),
      accounts: new Map(this.c.accounts),
      orders: new Map([...this.c.orders].map(([k, w]) => [k, new Map(w)])),
      conditionals: new Map([...this.c.conditionals].map(([k, w]) => [k, new Map(w)])),
      deals: new Map(this.c.deals),
      ledger: new Map(this.c.ledger),
    };
    this.collectVenue(batch, caches);
    const fromSeq = caches.seq;
    caches.seq = this.venue.saveClock().seq;
    let pos = 0;
    for (const account of this.venue.accounts.values()) this.collectAccount(account, pos++, fromSeq, batch, caches);
    return { batch, caches };
  }

  private collectVenue(batch: Batch, caches: Caches): void {
    const clock = encode(this.venue.saveClock());
    if (clock !== caches.clock) {
      batch.clock = clock;
      caches.clock = clock;
    }
    for (const m of this.venue.markets.values()) {
      const state = encode(m.saveState());
      if (caches.markets.get(m.name) === state) continue;
      batch.markets.push({ name: m.name, options: this.marketOptions.get(m.name) ?? '{}', state });
      caches.markets.set(m.name, state);
    }
  }

  private collectAccount(account: Account, pos: number, fromSeq: number, batch: Batch, caches: Caches): void {
    const apiKey = account.apiKey;
    const snapshot = accountSnapshot(account);
    // Compared without the nonces: they move on every request, reads included, and a read must
    // not cost a disk write. They are written with any other change (docs/paper-account.md).
    const compared = encode({ ...snapshot, lastNonce: null, windowNonces: new Map() });
    if (caches.accounts.get(apiKey) !== compared) {
      batch.accounts.push({ apiKey, pos, json: encode(snapshot) });
      caches.accounts.set(apiKey, compared);
    }
    const orders = watchOf(caches.orders, apiKey);
    const records = watchOf(caches.conditionals, apiKey);
    for (let id = fromSeq + 1; id <= caches.seq; id++) {
      if (account.orders.has(id) && !orders.has(id)) orders.set(id, '');
      if (account.conditionals.has(id) && !records.has(id)) records.set(id, '');
    }
    this.collectWatched(orders, (id) => account.orders.get(id), isFinalOrder, (id, j) => batch.orders.push({ apiKey, id, json: j }));
    this.collectWatched(records, (id) => account.conditionals.get(id), isFinalRecord, (id, j) => batch.conditionals.push({ apiKey, id, json: j }));
    const dealsDone = caches.deals.get(apiKey) ?? 0;
    account.deals.slice(dealsDone).forEach((d, i) => batch.deals.push({ apiKey, idx: dealsDone + i, id: d.id, json: encode(d) }));
    caches.deals.set(apiKey, account.deals.length);
    const ledgerDone = caches.ledger.get(apiKey) ?? 0;
    account.flexLedger.slice(ledgerDone).forEach((r, i) => batch.flexLedger.push({ apiKey, idx: ledgerDone + i, json: encode(r) }));
    caches.ledger.set(apiKey, account.flexLedger.length);
  }

  /** Writes the watched items whose JSON changed; drops the ones that can change no more. */
  private collectWatched<T>(watch: Watch, get: (id: number) => T | undefined, final: (t: T) => boolean, write: (id: number, json: string) => void): void {
    for (const [id, last] of watch) {
      const item = get(id);
      if (item === undefined) {
        watch.delete(id);
        continue;
      }
      const json = encode(item);
      if (json !== last) write(id, json);
      if (final(item)) watch.delete(id);
      else watch.set(id, json);
    }
  }
}

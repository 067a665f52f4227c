/**
 * A simulator whose whole state lives in a file (option `stateFile`): opened and restored at
 * start, committed before every reply that could reveal a change (server.ts) and after every
 * in-process operation (index.ts). Design and its cost: docs/paper-account.md.
 */
import type { Clock } from '../../core/clock.js';
import { defaultMarkets, type SimulatorOptions } from '../options.js';
import type { Venue } from '../venue.js';
import { StateDb } from './db.js';
import { marketsOf, restoreVenue } from './restore.js';
import { StateTracker } from './tracker.js';

export { PaperStateError } from './fields.js';

export interface PersistentVenue {
  venue: Venue;
  defaultAccount: { apiKey: string; apiSecret: string };
  /** True when the file held a venue (this start continues it); false for a new file. */
  continued: boolean;
  /** Durably writes every change since the last commit (one transaction); throws when it cannot. */
  commit(): void;
  close(): void;
}

/**
 * Opens `file` and restores the venue it holds, or creates one with `fresh` (the options'
 * accounts and balances) and writes it at once, so a new account exists on disk before any
 * request reaches it.
 */
export function openPersistentVenue(
  file: string,
  options: SimulatorOptions,
  clock: Clock,
  seed: number,
  fresh: () => { venue: Venue; defaultAccount: { apiKey: string; apiSecret: string } },
): PersistentVenue {
  const db = StateDb.open(file);
  try {
    const continued = !db.isEmpty();
    let venue: Venue;
    let defaultAccount: { apiKey: string; apiSecret: string };
    let markets = options.markets ?? defaultMarkets();
    let restored: { accounts: Set<string>; markets: Set<string> } | null = null;
    if (continued) {
      const stored = db.load();
      markets = marketsOf(stored, options);
      restored = { accounts: new Set(stored.accounts.map((a) => a.apiKey)), markets: new Set(stored.markets.map((m) => m.name)) };
      venue = restoreVenue(stored, options, clock, seed);
      const first = [...venue.accounts.values()][0] as NonNullable<ReturnType<typeof venue.accounts.get>>;
      defaultAccount = { apiKey: first.apiKey, apiSecret: first.apiSecret };
    } else {
      ({ venue, defaultAccount } = fresh());
    }
    const tracker = new StateTracker(venue, db, markets, restored);
    tracker.commit();
    return { venue, defaultAccount, continued, commit: () => tracker.commit(), close: () => db.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}

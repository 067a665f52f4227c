/**
 * A venue rebuilt from its state file. The markets' rules come from the options of this start
 * (the configuration may have changed); a market only the file knows keeps the options it was
 * stored with, so its open orders and positions stay consistent. Accounts, their orders, deals,
 * positions, OTO/OCO records, flex and nonces, the price paths and the clock come from the file.
 * API secrets are never stored: a configured account gets its secret from the options, any other
 * one a fresh secret per start (docs/paper-account.md).
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { Account } from '../account.js';
import { defaultMarkets, type MarketOptions, type SimulatorOptions } from '../options.js';
import { Venue } from '../venue.js';
import { readAccount, readClock, readConditional, readDeal, readFlexRecord, readMarketState, readOrder, type AccountSnapshot } from './codec.js';
import type { AccountRow, StoredState } from './db.js';
import { Fields, PaperStateError } from './fields.js';

function storedOptions(name: string, json: string): MarketOptions {
  const f = Fields.parse(`markets[${name}].options`, json);
  // Checked for the fields a Market cannot do without; the rest was written by this code.
  for (const k of ['name', 'startPrice', 'tick', 'step']) f.str(k);
  return JSON.parse(json) as MarketOptions;
}

/** The markets of this start plus those only the file knows. */
export function marketsOf(stored: StoredState, options: SimulatorOptions): MarketOptions[] {
  const current = options.markets ?? defaultMarkets();
  const names = new Set(current.map((m) => m.name));
  return [...current, ...stored.markets.filter((m) => !names.has(m.name)).map((m) => storedOptions(m.name, m.options))];
}

function rebuildAccount(s: AccountSnapshot, apiSecret: string): Account {
  const account = new Account({
    apiKey: s.apiKey,
    apiSecret,
    hedgeMode: s.hedgeMode,
    creditLineEnabled: s.creditLineEnabled,
    flexEnabled: s.flexEnabled,
    ...(s.loan === null ? {} : { loan: s.loan }),
  });
  for (const [asset, v] of s.balances) account.balances.set(asset, v);
  for (const [asset, v] of s.locked) account.locked.set(asset, v);
  for (const p of s.positions) account.positions.set(`${p.market}|${p.positionSide}`, p);
  account.flex.push(...s.flex);
  account.lastNonce = s.lastNonce === null ? null : BigInt(s.lastNonce);
  for (const [k, v] of s.windowNonces) account.windowNonces.set(k, v);
  return account;
}

function ownerOf(accounts: ReadonlyMap<string, Account>, row: AccountRow, table: string): Account {
  const a = accounts.get(row.apiKey);
  if (a === undefined) throw new PaperStateError(`${table}: a row of an account the file does not hold`);
  return a;
}

/** Orders (in id order, so the open set and "oldest first" come back as they were), records, deals, ledger. */
function restoreHistories(venue: Venue, stored: StoredState): void {
  stored.orders.forEach((r, i) => ownerOf(venue.accounts, r, 'orders').addOrder(readOrder(Fields.parse(`orders[${i}]`, r.json))));
  stored.conditionals.forEach((r, i) => {
    const rec = readConditional(Fields.parse(`conditionals[${i}]`, r.json));
    ownerOf(venue.accounts, r, 'conditionals').conditionals.set(rec.id, rec);
  });
  stored.deals.forEach((r, i) => ownerOf(venue.accounts, r, 'deals').deals.push(readDeal(Fields.parse(`deals[${i}]`, r.json))));
  for (const a of venue.accounts.values()) a.dealsRestored();
  stored.flexLedger.forEach((r, i) => ownerOf(venue.accounts, r, 'flex_ledger').flexLedger.push(readFlexRecord(Fields.parse(`flex_ledger[${i}]`, r.json))));
}

/** The venue as the file left it; its first account is the default one. */
export function restoreVenue(stored: StoredState, options: SimulatorOptions, clock: Clock, seed: number): Venue {
  const venue = new Venue(clock, seed, marketsOf(stored, options), options.stepMs ?? 1000, options.maxWalkSteps);
  venue.restoreClock(readClock(Fields.parse('clock', stored.clock)));
  for (const m of stored.markets) venue.markets.get(m.name)?.restoreState(readMarketState(Fields.parse(`markets[${m.name}].state`, m.state)));
  const configured = new Map((options.accounts ?? []).map((a) => [a.apiKey, a]));
  stored.accounts.forEach((row, i) => {
    const snapshot = readAccount(Fields.parse(`accounts[${i}]`, row.json));
    const secret = configured.get(snapshot.apiKey)?.apiSecret ?? randomBytes(32).toString('hex');
    venue.accounts.set(snapshot.apiKey, rebuildAccount(snapshot, secret));
  });
  if (venue.accounts.size === 0) throw new PaperStateError('accounts: the file holds no account');
  restoreHistories(venue, stored);
  // Accounts configured since the file was written join as new ones.
  for (const a of configured.values()) if (!venue.accounts.has(a.apiKey)) venue.addAccount(a);
  return venue;
}

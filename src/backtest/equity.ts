/**
 * The account's value at one instant, read from the simulator's own state (the truth, not the
 * bot's view): every balance (available and held) valued at `<ASSET>_<quote>`, open positions at
 * margin plus unrealised PnL at the market price, and flex investments still active. An asset
 * with no `<ASSET>_<quote>` market is left out, as the daemon's equity watch does (docs/configuration.md, `risk.equityAsset`).
 */
import { Decimal } from '../core/decimal.js';
import type { Account } from '../simulator/account.js';
import type { Venue } from '../simulator/venue.js';

function valued(venue: Venue, asset: string, amount: Decimal, quote: string): Decimal {
  if (asset === quote) return amount;
  const m = venue.markets.get(`${asset}_${quote}`);
  return m === undefined ? new Decimal(0) : amount.mul(m.price);
}

export function accountEquity(venue: Venue, account: Account, quote: string): Decimal {
  let eq = new Decimal(0);
  const assets = new Set([...account.balances.keys(), ...account.locked.keys()]);
  for (const asset of [...assets].sort()) {
    const held = (account.balances.get(asset) ?? new Decimal(0)).plus(account.locked.get(asset) ?? 0);
    eq = eq.plus(valued(venue, asset, held, quote));
  }
  for (const p of account.positions.values()) {
    const m = venue.markets.get(p.market);
    if (m === undefined || p.amount.isZero()) {
      eq = eq.plus(p.margin);
      continue;
    }
    const signedCost = p.amount.isNeg() ? p.cost.neg() : p.cost;
    eq = eq.plus(p.margin).plus(p.amount.mul(m.price).minus(signedCost));
  }
  for (const f of account.flex) if (f.status === 'ACTIVE') eq = eq.plus(valued(venue, f.currency, f.amount, quote));
  return eq;
}

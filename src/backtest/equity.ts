/**
 * The account's value at one instant, read from the simulator's own state (the truth, not the
 * bot's view) and valued by the daemon's one equity rule (src/engine/equity.ts `equityOf`,
 * docs/equity.md): available balances, what open orders hold (the simulator's locked amounts),
 * open positions at margin plus unrealised PnL at the market price, and active flex investments.
 * The parts, the valuation of each and the prices are the daemon's; only the source differs.
 */
import { ZERO, type Decimal } from '../core/decimal.js';
import { equityOf, planEquity, priceEquity, type Equity, type EquityInputs, type EquityPlan } from '../engine/equity.js';
import type { Account } from '../simulator/account.js';
import type { FlexInvestment, Position } from '../simulator/types.js';
import type { Venue } from '../simulator/venue.js';
import { sameEntries, type Entries } from './kept-entries.js';

/** Active flex investments per currency. */
function activeFlex(account: Account): Record<string, Decimal> {
  const flex: Record<string, Decimal> = {};
  for (const f of account.flex) if (f.status === 'ACTIVE') flex[f.currency] = (flex[f.currency] ?? ZERO).plus(f.amount);
  return flex;
}

/** A position as the rule takes it, with the asset it settles in. */
function rulePosition(p: Position, settleAsset: string): EquityInputs['positions'][number] {
  return { market: p.market, positionSide: p.positionSide, amount: p.amount, cost: p.cost, margin: p.margin, settleAsset };
}

/** The equity rule's inputs from the simulator's state of `account`. */
export function truthInputs(venue: Venue, account: Account, equityAsset: string): EquityInputs {
  return {
    equityAsset,
    balances: Object.fromEntries(account.balances),
    held: Object.fromEntries(account.locked),
    positions: positionsSeen(venue, account, equityAsset).map((s) => rulePosition(s[0], s[6])),
    flex: activeFlex(account),
    prices: Object.fromEntries([...venue.markets.values()].map((m) => [m.name, m.price])),
  };
}

/** The account's equity with its parts, by the daemon's rule. */
export function accountEquityParts(venue: Venue, account: Account, equityAsset: string): Equity {
  return equityOf(truthInputs(venue, account, equityAsset));
}

/** What the plan read of one position: the object and each field the rule values, as they were. */
type PositionSeen = readonly [Position, string, string, Decimal, Decimal, Decimal, string];
/** What the plan read of one flex investment. */
type FlexSeen = readonly [FlexInvestment, string, string, Decimal];

function positionsSeen(venue: Venue, account: Account, equityAsset: string): PositionSeen[] {
  const out: PositionSeen[] = [];
  for (const p of account.positions.values()) {
    out.push([p, p.market, p.positionSide, p.amount, p.cost, p.margin, venue.markets.get(p.market)?.money ?? equityAsset]);
  }
  return out;
}

function samePositions(kept: readonly PositionSeen[], venue: Venue, account: Account, equityAsset: string): boolean {
  if (kept.length !== account.positions.size) return false;
  let i = 0;
  for (const p of account.positions.values()) {
    const k = kept[i++] as PositionSeen;
    const same = k[0] === p && k[1] === p.market && k[2] === p.positionSide && k[3] === p.amount && k[4] === p.cost && k[5] === p.margin;
    if (!same || k[6] !== (venue.markets.get(p.market)?.money ?? equityAsset)) return false;
  }
  return true;
}

function sameFlex(kept: readonly FlexSeen[], flex: readonly FlexInvestment[]): boolean {
  if (kept.length !== flex.length) return false;
  for (let i = 0; i < flex.length; i++) {
    const f = flex[i] as FlexInvestment;
    const k = kept[i] as FlexSeen;
    if (k[0] !== f || k[1] !== f.status || k[2] !== f.currency || k[3] !== f.amount) return false;
  }
  return true;
}

/** The account state a plan was made from, and the plan's last pricing. */
interface KeptPlan {
  equityAsset: string;
  balances: Entries;
  locked: Entries;
  positions: readonly PositionSeen[];
  flex: readonly FlexSeen[];
  plan: EquityPlan;
  /** The rule's positions and flex inputs the plan was made from (a later plan reuses them while they stand still). */
  rulePositions: EquityInputs['positions'];
  ruleFlex: EquityInputs['flex'];
  /** The prices it was last valued at (undefined: not valued yet). */
  used: (Decimal | undefined)[] | undefined;
  total: Decimal;
}

/** Per account: a backtest samples one account at every price step. */
const keptPlans = new WeakMap<Account, KeptPlan>();

function stoodStill(k: KeptPlan, venue: Venue, account: Account, equityAsset: string): boolean {
  return (
    k.equityAsset === equityAsset &&
    sameEntries(k.balances, account.balances) &&
    sameEntries(k.locked, account.locked) &&
    samePositions(k.positions, venue, account, equityAsset) &&
    sameFlex(k.flex, account.flex)
  );
}

/**
 * The plan of the account as it stands, made from the state it keeps (the rule's inputs as
 * `truthInputs` gives them, without the prices a plan does not read). A fill or an order moves
 * the balances and held amounts, seldom the positions or the flex investments: while those are
 * the very same as `last`'s (what the rule reads of each), their inputs are `last`'s, not built
 * again (the rule only reads its inputs).
 */
function planOf(venue: Venue, account: Account, equityAsset: string, last: KeptPlan | undefined): KeptPlan {
  const balances = [...account.balances];
  const locked = [...account.locked];
  const sameAsset = last !== undefined && last.equityAsset === equityAsset;
  const keptPositions = sameAsset && samePositions(last.positions, venue, account, equityAsset);
  const positions = keptPositions ? last.positions : positionsSeen(venue, account, equityAsset);
  const rulePositions = keptPositions ? last.rulePositions : positions.map((s) => rulePosition(s[0], s[6]));
  const keptFlex = last !== undefined && sameFlex(last.flex, account.flex);
  const flex = keptFlex ? last.flex : account.flex.map((f) => [f, f.status, f.currency, f.amount] as const);
  const ruleFlex = keptFlex ? last.ruleFlex : activeFlex(account);
  const inputs = { equityAsset, balances: Object.fromEntries(balances), held: Object.fromEntries(locked), positions: rulePositions, flex: ruleFlex };
  return { equityAsset, balances, locked, positions, flex, plan: planEquity(inputs), rulePositions, ruleFlex, used: undefined, total: ZERO };
}

/**
 * The total of `accountEquityParts` (the run loop asks at every price step), by the same rule
 * (`planEquity` then `priceEquity`): the plan is kept per account while every balance, held
 * amount, position and flex investment it was made from is the very same (decimals are
 * immutable: a change stores a new one), and is only priced again; with the same price at each of
 * its markets, the last total is the answer.
 */
export function accountEquity(venue: Venue, account: Account, equityAsset: string): Decimal {
  let k = keptPlans.get(account);
  if (k === undefined || !stoodStill(k, venue, account, equityAsset)) {
    k = planOf(venue, account, equityAsset, k);
    keptPlans.set(account, k);
  }
  const markets = k.plan.markets;
  const at: (Decimal | undefined)[] = new Array<Decimal | undefined>(markets.length);
  const used = k.used;
  let same = used !== undefined;
  for (let n = 0; n < markets.length; n++) {
    at[n] = venue.markets.get(markets[n] as string)?.price;
    same &&= at[n] === used?.[n];
  }
  if (same) return k.total;
  k.used = at;
  k.total = priceEquity(k.plan, at).total;
  return k.total;
}

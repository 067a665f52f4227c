/**
 * Pure kernel: what the bot's books say each asset's main balance should be, up to a constant
 * (docs/balance-audit.md). The balance audit never compares these totals with a balance
 * directly; it compares their *change* between two audits with the change of the venue's main
 * balance, so anything the books never saw (the starting balances) cancels out.
 *
 * Per asset, the total is the sum of:
 * - our own fills: a spot buy adds the base amount and takes the quote amount, a spot sell the
 *   reverse; a collateral fill moves only the settlement asset (sell +quote, buy −quote), which
 *   equals the venue's margin and realised-PnL movements over any stretch that starts and ends
 *   with the position flat (margin held at the open is released at the close, and the PnL is the
 *   difference of the quotes), so an asset with an open collateral position of the account
 *   (from every fill of the market, ours or not) is `inFlight`;
 * - fees, in the fee asset (the market's quote when the venue did not name one);
 * - flex history records by their effect on the main balance (`FLEX_MAIN_EFFECT`);
 * - the active credit-line loan (borrowed funds are in the main balance);
 * - minus what our open orders hold (src/engine/order-holds.ts): the main balance is the
 *   *available* amount, so a placement lowers it by the hold and a cancel gives the hold back.
 */
import { ZERO, type Decimal } from '../../core/decimal.js';
import type { Side } from '../../core/orders.js';

/** One of our fills, with whether its order is a collateral order. */
export interface BooksFill {
  market: string;
  side: Side;
  /** Base amount. */
  amount: Decimal;
  /** Quote amount. */
  quote: Decimal;
  fee: Decimal;
  /** '' when the venue did not name it. */
  feeAsset: string;
  collateral: boolean;
  /** Collateral position side of the order (`BOTH` in one-way mode). */
  positionSide: string;
}

export interface BooksFlexRecord {
  currency: string;
  amount: Decimal;
  actionType: string;
}

/**
 * How each flex history action moves the main balance: a subscription takes from it, a
 * withdrawal or close pays into it; earnings accrue to the investment (the simulator's rule,
 * src/simulator/flex.ts) and reach the main balance only with the close that pays them out, and
 * opening or reinvesting moves nothing between the main balance and the investment by itself.
 */
export const FLEX_MAIN_EFFECT: Readonly<Record<string, -1 | 0 | 1>> = {
  INVEST: -1,
  OPEN_INVESTMENT: 0,
  REINVEST: 0,
  DAILY_EARNING: 0,
  WITHDRAW_FROM_INVESTMENT: 1,
  CLOSE_INVESTMENT: 1,
};

/** A fill of a collateral market, ours or not, for the account's positions. */
export type PositionFill = Pick<BooksFill, 'market' | 'side' | 'amount' | 'positionSide'>;

/**
 * The fills' part of the books: our fills' totals per asset, and the account's net collateral
 * position per market and position side. Fills only ever arrive, so it can grow by the new ones.
 */
export interface FillBook {
  totals: Readonly<Record<string, Decimal>>;
  /** Net base per `market|positionSide` (buy +, sell −). */
  positions: Readonly<Record<string, Decimal>>;
}

export const EMPTY_FILL_BOOK: FillBook = { totals: {}, positions: {} };

export interface BooksInput {
  /** `withFills` over our fills and the collateral markets' fills. */
  fillBook: FillBook;
  flex: readonly BooksFlexRecord[];
  /** The credit line's loan at the last check, null when none is active. */
  loan: { asset: string; amount: Decimal } | null;
  /** What our open orders hold, per asset. */
  held: Readonly<Record<string, Decimal>>;
  /** Markets where a collateral order of ours holds funds (its margin is the venue's to decide). */
  collateralHolding: readonly string[];
  /** A market's base asset and the asset its quote side settles in (a perpetual has none in its name). */
  assetsOf: (market: string) => { base: string; quote: string };
}

export interface Books {
  /** Per asset, the books' total (see the header). */
  totals: Record<string, Decimal>;
  /** Assets the books cannot account for right now (collateral margin in use), sorted. */
  inFlight: string[];
}

function add(totals: Record<string, Decimal>, asset: string, amount: Decimal): void {
  totals[asset] = (totals[asset] ?? ZERO).plus(amount);
}

function addFill(totals: Record<string, Decimal>, f: BooksFill, assets: { base: string; quote: string }): void {
  const { base, quote } = assets;
  add(totals, quote, f.side === 'buy' ? f.quote.neg() : f.quote);
  if (!f.collateral) add(totals, base, f.side === 'buy' ? f.amount : f.amount.neg());
  if (!f.fee.isZero()) add(totals, f.feeAsset === '' ? quote : f.feeAsset, f.fee.neg());
}

/**
 * `book` with more fills: `own` are our fills only (a fill of an order the bot did not place is
 * exactly what the audit looks for); `position` every fill of the collateral markets, ours or
 * not (the venue holds margin for the account's position, so a position someone else closed is
 * flat, and its settlement asset accountable). Returns a new book.
 */
export function withFills(
  book: FillBook,
  own: readonly BooksFill[],
  position: readonly PositionFill[],
  assetsOf: (market: string) => { base: string; quote: string },
): FillBook {
  const totals = { ...book.totals };
  const positions = { ...book.positions };
  for (const f of own) addFill(totals, f, assetsOf(f.market));
  for (const f of position) add(positions, `${f.market}|${f.positionSide}`, f.side === 'buy' ? f.amount : f.amount.neg());
  return { totals, positions };
}

/** Markets with an open position in the book. */
function openMarkets(book: FillBook): string[] {
  return Object.entries(book.positions)
    .filter(([, base]) => !base.isZero())
    .map(([key]) => key.slice(0, key.indexOf('|')));
}

/** The books' totals per asset and the assets they cannot account for now. */
export function booksOf(input: BooksInput): Books {
  const totals: Record<string, Decimal> = { ...input.fillBook.totals };
  for (const r of input.flex) {
    const effect = FLEX_MAIN_EFFECT[r.actionType] ?? 0;
    if (effect !== 0) add(totals, r.currency, effect === 1 ? r.amount : r.amount.neg());
  }
  if (input.loan !== null) add(totals, input.loan.asset, input.loan.amount);
  for (const [asset, amount] of Object.entries(input.held)) add(totals, asset, amount.neg());
  const markets = new Set([...openMarkets(input.fillBook), ...input.collateralHolding]);
  const inFlight = [...new Set([...markets].map((m) => input.assetsOf(m).quote))].sort();
  return { totals, inFlight };
}

/** A stable text of the books, to tell whether they moved between two reads. */
export function booksFingerprint(b: Books): string {
  const parts = Object.keys(b.totals)
    .sort()
    .map((a) => `${a}=${(b.totals[a] ?? ZERO).toFixed()}`);
  return `${parts.join(';')}|${b.inFlight.join(',')}`;
}

/**
 * The balance audit's pure parts: each kind of movement the books explain (spot fills with their
 * fees, collateral fills over a flat-to-flat stretch, flex actions, the loan, open-order holds),
 * the tolerance edges, the two-look confirmation and how the baseline moves.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { allowedDifference, compareAssets, confirm, nextBaseline, type Baseline, type Snapshot, type Tolerance } from '../../../src/engine/kernels/balance-audit.js';
import { booksFingerprint, booksOf, EMPTY_FILL_BOOK, withFills, type BooksFill, type BooksInput, type PositionFill } from '../../../src/engine/kernels/books.js';

const d = (s: string): Decimal => new Decimal(s);
const assetsOf = (m: string): { base: string; quote: string } => {
  const [base = '', quote = ''] = m.split('_');
  return { base, quote: quote === 'PERP' ? 'USDT' : quote };
};
type Over = Partial<Omit<BooksInput, 'fillBook'>> & { fills?: BooksFill[]; positionFills?: PositionFill[] };
const input = ({ fills = [], positionFills, ...over }: Over = {}): BooksInput => ({
  fillBook: withFills(EMPTY_FILL_BOOK, fills, positionFills ?? fills.filter((f) => f.collateral), assetsOf),
  flex: [],
  loan: null,
  held: {},
  collateralHolding: [],
  assetsOf,
  ...over,
});
const fill = (over: Partial<BooksFill>): BooksFill => ({
  market: 'BTC_USDT',
  side: 'buy',
  amount: d('0.01'),
  quote: d('300'),
  fee: d('0.3'),
  feeAsset: 'USDT',
  collateral: false,
  positionSide: 'BOTH',
  ...over,
});
const totals = (i: BooksInput): Record<string, string> => Object.fromEntries(Object.entries(booksOf(i).totals).map(([k, v]) => [k, v.toFixed()]));
const TOL: Tolerance = { fraction: d('0.0001'), byAsset: {} };

describe('the books', () => {
  it('a spot buy adds base, takes quote and the fee; a sell the reverse', () => {
    expect(totals(input({ fills: [fill({})] }))).toEqual({ BTC: '0.01', USDT: '-300.3' });
    expect(totals(input({ fills: [fill({ side: 'sell' })] }))).toEqual({ BTC: '-0.01', USDT: '299.7' });
  });

  it('a fee with no named asset is charged in the quote; a base-asset fee in the base', () => {
    expect(totals(input({ fills: [fill({ feeAsset: '' })] }))).toEqual({ BTC: '0.01', USDT: '-300.3' });
    expect(totals(input({ fills: [fill({ fee: d('0.00001'), feeAsset: 'BTC' })] }))).toEqual({ BTC: '0.00999', USDT: '-300' });
  });

  it('collateral fills move only the settlement asset, and an open position puts it in flight', () => {
    const open = fill({ market: 'BTC_PERP', collateral: true, quote: d('300'), fee: d('0.3') });
    const b1 = booksOf(input({ fills: [open] }));
    expect(b1.totals['BTC']).toBeUndefined();
    expect(b1.inFlight).toEqual(['USDT']);
    const close = fill({ market: 'BTC_PERP', collateral: true, side: 'sell', quote: d('310'), fee: d('0.31') });
    const b2 = booksOf(input({ fills: [open, close] }));
    // Flat again: the venue paid back the margin and the PnL of 10, less both fees.
    expect(b2.totals['USDT']?.toFixed()).toBe('9.39');
    expect(b2.inFlight).toEqual([]);
  });

  it('a position someone else closed is flat: the settlement asset is accountable, and only our fills are in its total', () => {
    const open = fill({ market: 'BTC_PERP', collateral: true });
    const closedByOther = fill({ market: 'BTC_PERP', collateral: true, side: 'sell', quote: d('305') });
    const b = booksOf(input({ fills: [open], positionFills: [open, closedByOther] }));
    expect(b.inFlight).toEqual([]);
    expect(b.totals['USDT']?.toFixed()).toBe('-300.3');
  });

  it('hedge-mode sides are separate positions: a long and a short of the same size are both open', () => {
    const long = fill({ market: 'BTC_PERP', collateral: true, positionSide: 'LONG' });
    const short = fill({ market: 'BTC_PERP', collateral: true, side: 'sell', positionSide: 'SHORT' });
    expect(booksOf(input({ fills: [long, short] })).inFlight).toEqual(['USDT']);
  });

  it('a collateral order holding funds puts its settlement asset in flight', () => {
    expect(booksOf(input({ collateralHolding: ['BTC_PERP'] })).inFlight).toEqual(['USDT']);
  });

  it('flex: a subscription takes, a close and a withdrawal pay, earnings and reinvestment move nothing by themselves', () => {
    const flex = [
      { currency: 'USDT', amount: d('1000'), actionType: 'INVEST' },
      { currency: 'USDT', amount: d('1.5'), actionType: 'DAILY_EARNING' },
      { currency: 'USDT', amount: d('1.5'), actionType: 'REINVEST' },
      { currency: 'USDT', amount: d('1000'), actionType: 'OPEN_INVESTMENT' },
      { currency: 'USDT', amount: d('200'), actionType: 'WITHDRAW_FROM_INVESTMENT' },
      { currency: 'USDT', amount: d('801.5'), actionType: 'CLOSE_INVESTMENT' },
    ];
    expect(totals(input({ flex }))).toEqual({ USDT: '1.5' });
  });

  it('the active loan is in the balance; open-order holds are not', () => {
    expect(totals(input({ loan: { asset: 'USDT', amount: d('500') }, held: { USDT: d('120.12'), BTC: d('0.02') } }))).toEqual({ USDT: '379.88', BTC: '-0.02' });
  });

  it('a fill book grown by later fills equals one counted at once', () => {
    const fills = [fill({}), fill({ side: 'sell', fee: d('0.1') }), fill({ market: 'BTC_PERP', collateral: true }), fill({ market: 'ETH_USDT', amount: d('2'), feeAsset: '' })];
    const atOnce = withFills(EMPTY_FILL_BOOK, fills, fills.filter((f) => f.collateral), assetsOf);
    let grown = EMPTY_FILL_BOOK;
    for (const f of fills) grown = withFills(grown, [f], f.collateral ? [f] : [], assetsOf);
    const text = (b: typeof atOnce): string => JSON.stringify([Object.entries(b.totals).sort(), Object.entries(b.positions).sort()]);
    expect(text(grown)).toBe(text(atOnce));
    expect(EMPTY_FILL_BOOK).toEqual({ totals: {}, positions: {} });
  });

  it('the fingerprint changes with any total or the in-flight set, and only then', () => {
    const a = booksOf(input({ fills: [fill({})] }));
    expect(booksFingerprint(a)).toBe(booksFingerprint(booksOf(input({ fills: [fill({})] }))));
    expect(booksFingerprint(a)).not.toBe(booksFingerprint(booksOf(input({ fills: [fill({ fee: d('0.31') })] }))));
    expect(booksFingerprint(a)).not.toBe(booksFingerprint(booksOf(input({ fills: [fill({})], collateralHolding: ['BTC_PERP'] }))));
  });
});

const snap = (atMs: number, balances: Record<string, string>, books: Record<string, string>, inFlight: string[] = []): Snapshot => ({
  atMs,
  balances: Object.fromEntries(Object.entries(balances).map(([k, v]) => [k, d(v)])),
  books: { totals: Object.fromEntries(Object.entries(books).map(([k, v]) => [k, d(v)])), inFlight },
});
const base = (atMs: number, assets: Record<string, [string, string] | null>): Baseline => ({
  atMs,
  assets: Object.fromEntries(Object.entries(assets).map(([k, v]) => [k, v === null ? null : { balance: d(v[0]), books: d(v[1]), atMs }])),
});

describe('the comparison', () => {
  it('a change the books explain exactly is explained; the amounts are the window\'s changes', () => {
    const [v] = compareAssets(base(1000, { USDT: ['10000', '-50'] }), snap(2000, { USDT: '9699.7' }, { USDT: '-350.3' }), TOL);
    expect(v).toMatchObject({ asset: 'USDT', verdict: 'explained', fromMs: 1000, toMs: 2000 });
    expect([v?.actual.toFixed(), v?.expected.toFixed(), v?.difference.toFixed()]).toEqual(['-300.3', '-300.3', '0']);
  });

  it('a difference of exactly the tolerance is explained; one unit more is not', () => {
    // max(|10000|, |10001|) × 0.0001 = 1.0001
    expect(allowedDifference('USDT', d('10000'), d('10001'), TOL).toFixed()).toBe('1.0001');
    const at = (bal: string) => compareAssets(base(1, { USDT: ['10000', '0'] }), snap(2, { USDT: bal }, { USDT: '0' }), TOL)[0]?.verdict;
    expect(at('10001.0001')).toBe('explained');
    expect(at('10001.0002')).toBe('unexplained');
    // Downwards the larger end is the start: allowed 1.
    expect(at('9999')).toBe('explained');
    expect(at('9998.9999')).toBe('unexplained');
  });

  it('a per-asset allowance wins when it is larger than the fraction; with both at zero any difference counts', () => {
    const tol: Tolerance = { fraction: d('0'), byAsset: { BTC: d('0.0001') } };
    const at = (bal: string, asset = 'BTC') => compareAssets(base(1, { [asset]: ['1', '0'] }), snap(2, { [asset]: bal }, {}), tol)[0]?.verdict;
    expect(at('1.0001')).toBe('explained');
    expect(at('1.00010001')).toBe('unexplained');
    expect(at('1.000000000000000001', 'ETH')).toBe('unexplained');
    expect(at('1', 'ETH')).toBe('explained');
  });

  it('an asset the venue stopped listing is zero; an asset absent from the baseline was zero then', () => {
    const vs = compareAssets(base(1, { BTC: ['0.5', '0'] }), snap(2, { ETH: '2' }, { ETH: '2' }), TOL);
    expect(vs.map((v) => [v.asset, v.verdict, v.actual.toFixed()])).toEqual([
      ['BTC', 'unexplained', '-0.5'],
      ['ETH', 'explained', '2'],
    ]);
  });

  it('the first audit starts every window; an asset in flight is deferred and keeps its old start', () => {
    const first = compareAssets({ atMs: null, assets: {} }, snap(5, { USDT: '1', BTC: '2' }, {}, ['USDT']), TOL);
    expect(first.map((v) => [v.asset, v.verdict])).toEqual([
      ['BTC', 'started'],
      ['USDT', 'deferred'],
    ]);
    const b = nextBaseline({ atMs: null, assets: {} }, snap(5, { USDT: '1', BTC: '2' }, {}, ['USDT']), first);
    expect(b.assets['USDT']).toBeNull();
    expect(b.assets['BTC']?.balance.toFixed()).toBe('2');
    // USDT becomes accountable later: its window starts then, whatever happened while in flight.
    const later = compareAssets(b, snap(9, { USDT: '7', BTC: '2' }, {}), TOL);
    expect(later.map((v) => [v.asset, v.verdict])).toEqual([
      ['BTC', 'explained'],
      ['USDT', 'started'],
    ]);
  });

  it('a deferred asset keeps its start until it is accountable, then the whole stretch is judged', () => {
    const b0 = base(1, { USDT: ['100', '0'] });
    const mid = snap(2, { USDT: '40' }, { USDT: '-300' }, ['USDT']);
    const v1 = compareAssets(b0, mid, TOL);
    expect(v1[0]?.verdict).toBe('deferred');
    const b1 = nextBaseline(b0, mid, v1);
    expect(b1.assets['USDT']).toMatchObject({ atMs: 1 });
    const v2 = compareAssets(b1, snap(3, { USDT: '109' }, { USDT: '9' }), TOL);
    expect(v2[0]).toMatchObject({ verdict: 'explained', fromMs: 1 });
  });

  it('a difference is confirmed only when both looks show it; the second look alone makes it unconfirmed', () => {
    const b = base(1, { USDT: ['100', '0'], BTC: ['1', '0'] });
    const first = compareAssets(b, snap(2, { USDT: '90', BTC: '0.9' }, {}), TOL);
    const second = compareAssets(b, snap(3, { USDT: '90', BTC: '1' }, {}), TOL);
    expect(confirm(first, second).map((v) => [v.asset, v.verdict])).toEqual([
      ['BTC', 'explained'],
      ['USDT', 'unexplained'],
    ]);
    const onlySecond = confirm(compareAssets(b, snap(2, { USDT: '100', BTC: '1' }, {}), TOL), second);
    expect(onlySecond.find((v) => v.asset === 'USDT')?.verdict).toBe('unconfirmed');
  });

  it('explained and unexplained assets move their start to now; unconfirmed ones keep it', () => {
    const b = base(1, { USDT: ['100', '0'], BTC: ['1', '0'] });
    const now = snap(3, { USDT: '90', BTC: '2' }, {});
    const next = nextBaseline(b, now, [
      { ...compareAssets(b, now, TOL)[1]!, verdict: 'unexplained' },
      { ...compareAssets(b, now, TOL)[0]!, verdict: 'unconfirmed' },
    ]);
    expect(next.atMs).toBe(3);
    expect(next.assets['USDT']).toMatchObject({ atMs: 3 });
    expect(next.assets['USDT']?.balance.toFixed()).toBe('90');
    expect(next.assets['BTC']).toMatchObject({ atMs: 1 });
  });
});

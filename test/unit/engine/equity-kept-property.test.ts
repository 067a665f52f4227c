/**
 * The equity check's kept path against a full re-read, on the backtest's real parts: the simulator
 * venue behind the in-process gateway (its kept account reads), MarketData, the journal's parts
 * from a real SQLite store (EquitySources) and the kept valuation (the rule's plan kept, re-priced
 * alone while the journal reading and the balances stand still). After every step of a random
 * sequence of price moves, resting orders, fills (the account's change mark moves), journal
 * orders, collateral and spot fills, flex earned (in the journal and at the venue), an asset newly held
 * (a market priced for the first time) and an asset without a price, the kept reading gives the
 * equity a gateway that asks the venue every time, read from a fresh journal reading and valued
 * from scratch by the one rule, gives: equal to the last digit. A check with nothing new is
 * answered with the kept equity itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { ManualClock } from '../../../src/core/clock.js';
import { dec, type Decimal } from '../../../src/core/decimal.js';
import { simulatorHoldRules } from '../../../src/daemon/hold-rules.js';
import { equityOf, type Equity } from '../../../src/engine/equity.js';
import { KeptValuation, lastPrices, readEquity, type EquityReading } from '../../../src/engine/equity-reader.js';
import { EquitySources } from '../../../src/engine/equity-sources.js';
import { MarketData, pricesFromListing } from '../../../src/engine/market-data.js';
import type { ExchangeGateway } from '../../../src/exchange/gateway.js';
import type { Account } from '../../../src/simulator/account.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';
import { memoryStore } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1, 22);
const PLAN = '11111111-2222-4333-8444-555555555555';

/** Every figure as text: two equities compare to the last digit. */
function text(e: Equity): unknown {
  const map = (m: Record<string, Decimal>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.toFixed()]));
  return { asset: e.equityAsset, total: e.total.toFixed(), parts: map(e.parts), unvalued: map(e.unvalued), unmarked: e.unmarked };
}

class Rig {
  readonly clock = new ManualClock(T0);
  readonly venue = new Venue(this.clock, 7, defaultMarkets(), 60_000);
  readonly account: Account = this.venue.addAccount({
    ...{ apiKey: 'k', apiSecret: 's', balances: { USDT: '100000', BTC: '2' } },
    flex: [{ currency: 'USDT', amount: '5000', dailyRate: '0.001', planId: PLAN }],
  });
  private readonly api = inProcessApi(this.venue, this.account);
  private readonly catchUp = (): void => this.venue.catchUp();
  readonly kept: ExchangeGateway = inProcessGateway(this.api, this.account, { catchUp: this.catchUp });
  readonly full: ExchangeGateway = inProcessGateway(this.api, this.account, { catchUp: this.catchUp, keepReads: false, changeMark: false });
  readonly store = memoryStore();
  readonly rules = simulatorHoldRules(this.venue.markets);
  private readonly sources = new EquitySources(this.store, this.rules);
  private readonly market = new MarketData(this.kept, this.clock, 1_000);
  private readonly valuation = new KeptValuation();
  private n = 0;

  /** One check as the engine runs it (equity-check.ts reads through readEquity). */
  check(): Promise<EquityReading> {
    return readEquity({ equityAsset: 'USDT', sources: this.sources, fresh: () => this.market.fresh(), valuation: this.valuation });
  }

  /** Everything read again: a new journal reading, the venue asked, the rule applied from scratch. */
  async scratch(): Promise<Equity> {
    const journal = new EquitySources(this.store, this.rules).read();
    const [futures, balances] = await Promise.all([this.full.markets(), this.full.balances()]);
    const prices = lastPrices(pricesFromListing(futures));
    return equityOf({ equityAsset: 'USDT', balances: Object.fromEntries(balances), held: journal.held.byAsset, positions: journal.positions, flex: journal.flex, prices });
  }

  private price(market: string): Decimal {
    return this.venue.markets.get(market)?.price ?? dec('0');
  }

  /** An order at the venue: resting (half the price) or taking (half again above it: a deal). */
  place(taking: boolean): void {
    const price = this.price('BTC_USDT').mul(taking ? '1.5' : '0.5').toDecimalPlaces(2);
    const order = { market: 'BTC_USDT', amount: dec('0.01'), postOnly: false, ioc: false, rpi: false, kind: 'spot' as const };
    this.venue.place(this.account, { ...order, side: 'buy', price, clientOrderId: `v-${++this.n}` });
  }

  /** A holding order in the journal. */
  journalOrder(): void {
    const id = `j-${++this.n}`;
    const input = { clientOrderId: id, strategyId: 'grid', kind: 'limit' as const, market: 'BTC_USDT', side: 'buy' as const, amount: dec('0.01') };
    this.store.orders.insertPending({ ...input, price: dec('30000'), postOnly: true, ioc: false, rpi: false }, this.clock.now());
    this.store.orders.setState(id, 'PENDING', 'OPEN', null, this.clock.now(), { orderId: 1000 + this.n });
  }

  /** A fill in the journal: on BTC_PERP a collateral fill (a position marked there), on BTC_USDT a spot fill (no position). */
  journalFill(market: 'BTC_PERP' | 'BTC_USDT'): void {
    const deal = ++this.n;
    const amount = dec('0.01');
    const price = this.price(market);
    this.store.fills.insert({
      ...{ dealId: deal, orderId: 5000 + deal, clientOrderId: '', market, side: deal % 2 === 0 ? 'buy' : 'sell', role: 'taker', timeMs: this.clock.now() + deal },
      ...{ amount, price, quote: amount.mul(price), fee: dec('0'), feeAsset: 'USDT', strategyId: null, ownerClientOrderId: null },
    });
  }

  /** Flex earned, as the flex job journals it. */
  journalEarning(): void {
    const id = String(++this.n);
    this.store.flex.insert({ transactionId: `t-${id}`, createdAtMs: this.clock.now(), planId: PLAN, investmentId: 'inv-1', currency: 'USDT', amount: dec(`1.${id}`), actionType: 'DAILY_EARNING' });
  }
}

const MOVES = ['minute', 'hours', 'rest', 'take', 'journal-order', 'collateral-fill', 'spot-fill', 'journal-earning', 'new-asset', 'unpriced-asset', 'again'] as const;
type Move = (typeof MOVES)[number];

function act(rig: Rig, move: Move): void {
  if (move === 'minute') rig.clock.advance(60_000);
  // Hours: many price steps and the venue's daily flex earning.
  if (move === 'hours') rig.clock.advance(5 * 3_600_000);
  if (move === 'rest' || move === 'take') rig.place(move === 'take');
  if (move === 'journal-order') rig.journalOrder();
  if (move === 'collateral-fill') rig.journalFill('BTC_PERP');
  if (move === 'spot-fill') rig.journalFill('BTC_USDT');
  if (move === 'journal-earning') rig.journalEarning();
  if (move === 'new-asset') rig.account.credit('ETH', dec('0.5'));
  if (move === 'unpriced-asset') rig.account.credit('XYZ', dec('3'));
}

describe('the equity check kept against a full re-read', () => {
  it('gives the full re-read equity to the last digit after random account changes and price moves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...MOVES), { minLength: 1, maxLength: 16 }), async (run) => {
        const rig = new Rig();
        let last = await rig.check();
        expect(text(last.equity)).toEqual(text(await rig.scratch()));
        for (const move of run) {
          const mark = rig.account.changes;
          act(rig, move);
          const now = await rig.check();
          expect(text(now.equity), move).toEqual(text(await rig.scratch()));
          expect(now.equity.total.eq((await rig.scratch()).total), move).toBe(true);
          // Nothing new: the kept equity itself. A deal moves the change mark and the equity with it.
          if (move === 'again') expect(now.equity, move).toBe(last.equity);
          if (rig.account.changes !== mark) expect(now.equity, move).not.toBe(last.equity);
          last = now;
        }
      }),
      { numRuns: 40 },
    );
  });

  it('values afresh a market priced for the first time and flex earned, and keeps a check with nothing new', async () => {
    const rig = new Rig();
    const first = await rig.check();
    expect(await rig.check()).toMatchObject({ equity: first.equity });
    rig.account.credit('ETH', dec('0.5'));
    const eth = await rig.check();
    const ethUsdt = lastPrices(pricesFromListing(await rig.full.markets()))['ETH_USDT'] as Decimal;
    expect(eth.equity.parts.balances.minus(first.equity.parts.balances).toFixed()).toBe(ethUsdt.mul('0.5').toFixed());
    rig.journalEarning();
    const earned = await rig.check();
    expect(earned.equity.parts.flex.minus(eth.equity.parts.flex).toFixed()).toBe('1.1');
    expect(text(earned.equity)).toEqual(text(await rig.scratch()));
  });
});

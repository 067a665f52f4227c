/**
 * Random operations on a real simulator venue (placing spot and collateral orders with brackets,
 * cancelling, price moves and steps, the venue cancelling an OCO or settling the account), for
 * the property tests of the venue's account state.
 */
import fc from 'fast-check';
import { Decimal } from '../../src/core/decimal.js';
import type { Account } from '../../src/simulator/account.js';
import { cancelOco, settleAccount } from '../../src/simulator/settle.js';
import type { Venue } from '../../src/simulator/venue.js';

export const MARKETS = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '0', volumePerStep: '0.5', volatility: '0' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '0', volumePerStep: '0.5', volatility: '0' },
];

export type Op =
  | { kind: 'spot'; buy: boolean; offset: number }
  | { kind: 'bracket'; buy: boolean; offset: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'price'; market: number; price: number }
  | { kind: 'step'; n: number }
  | { kind: 'cancelOco'; pick: number }
  | { kind: 'settle' };

export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('spot' as const), buy: fc.boolean(), offset: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ kind: fc.constant('bracket' as const), buy: fc.boolean(), offset: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('price' as const), market: fc.integer({ min: 0, max: 1 }), price: fc.integer({ min: 80, max: 120 }) }),
  fc.record({ kind: fc.constant('step' as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('cancelOco' as const), pick: fc.nat() }),
  fc.constant({ kind: 'settle' as const }),
);

export function apply(venue: Venue, account: Account, o: Op, n: number): void {
  const price = (market: string): Decimal => venue.requireMarket(market).price;
  switch (o.kind) {
    case 'spot':
    case 'bracket': {
      const market = o.kind === 'spot' ? 'BTC_USDT' : 'BTC_PERP';
      const at = price(market).plus(o.offset);
      const bracket = o.kind === 'bracket' ? { stopLoss: at.plus(o.buy ? -5 : 5), takeProfit: at.plus(o.buy ? 5 : -5) } : {};
      const input = { market, side: o.buy ? 'buy' : 'sell', amount: new Decimal('0.3'), price: at, postOnly: false, ioc: false, rpi: false, clientOrderId: `c${n}` } as const;
      venue.place(account, { ...input, kind: o.kind === 'spot' ? 'spot' : 'collateral', ...bracket });
      return;
    }
    case 'cancel': {
      const open = account.openOrders();
      const target = open[o.pick % Math.max(1, open.length)];
      if (target !== undefined) venue.cancel(account, target.market, target.orderId, undefined);
      return;
    }
    case 'price':
      return venue.setPrice(MARKETS[o.market]?.name ?? 'BTC_USDT', String(o.price));
    case 'step':
      return venue.step(o.n);
    case 'cancelOco': {
      const ocos = [...account.conditionals.values()].filter((r) => r.type === 'oco' && r.active);
      const target = ocos[o.pick % Math.max(1, ocos.length)];
      if (target !== undefined) cancelOco(account, target.id, venue.nowMs());
      return;
    }
    case 'settle':
      settleAccount(venue, account);
  }
}

/**
 * A limit placement through the in-process gateway's `submitLimitOrdersNow` (each bulk request
 * answered at once, no promise per request) gives what the adapter's async path gives. Random
 * lists (one to forty-five orders, so one to three requests; some off the step, some too big for
 * the balance, some crossing the price, others resting), cancels and price moves run on two
 * identical venues and engines, one placing through `submitLimitOrdersNow` and one with it turned
 * off: every placement's outcomes (errors by class, code and message), the journal's rows and the
 * venue's orders are the same after every operation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import type { BotError } from '../../../src/core/errors.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import type { LimitOrderSpec } from '../../../src/engine/order-manager.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const START = 1_700_000_040_000;

/** Values as text: every Decimal as its exact digits (and a zero's sign), errors by class, code and message. */
function asText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Decimal) return `dec:${v.isNeg() ? '-' : ''}${v.abs().toFixed()}`;
    if (v instanceof Error) return { error: v.constructor.name, code: (v as BotError).code, message: v.message };
    return v;
  });
}

type Op =
  | { kind: 'place'; orders: { buy: boolean; offset: number; amount: string; postOnly: boolean | undefined }[] }
  | { kind: 'price'; move: number }
  | { kind: 'cancel'; pick: number };

const item = fc.record({
  buy: fc.boolean(),
  offset: fc.integer({ min: -3, max: 3 }),
  // Off the step, too big for the balance, plain.
  amount: fc.constantFrom('0.01', '0.02', '0.0001234', '500'),
  postOnly: fc.option(fc.boolean(), { nil: undefined }),
});

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('place' as const), orders: fc.array(item, { minLength: 1, maxLength: 45, size: 'max' }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('price' as const), move: fc.integer({ min: -8, max: 8 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }), weight: 1 },
);

function rig(placeNow: boolean) {
  const clock = new ManualClock(START);
  const venue = new Venue(clock, 7, defaultMarkets().map((m) => ({ ...m, volatility: '0' })), 60_000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '10' } });
  const gateway = inProcessGateway(inProcessApi(venue, account), account, { catchUp: () => venue.catchUp(), placeNow });
  expect(gateway.submitLimitOrdersNow !== undefined).toBe(placeNow);
  const e = buildEngine(tempDir(), gateway, clock);
  closeAfterTest(e.store);
  return { venue, account, e };
}

type Rig = ReturnType<typeof rig>;

const at = (offset: number): Decimal => dec(String(60_000 + offset * 100));

/** What an operation answered, as text. */
async function apply(r: Rig, o: Op): Promise<string> {
  switch (o.kind) {
    case 'place': {
      const specs = o.orders.map((s): LimitOrderSpec => {
        const spec: LimitOrderSpec = { market: 'BTC_USDT', side: s.buy ? 'buy' : 'sell', amount: dec(s.amount), price: at(s.offset) };
        if (s.postOnly !== undefined) spec.postOnly = s.postOnly;
        return spec;
      });
      return asText(await r.e.orders.placeLimitOrders('grid', specs));
    }
    case 'price':
      r.venue.setPrice('BTC_USDT', at(o.move).toFixed());
      return '';
    case 'cancel': {
      const open = r.e.store.orders.listByState(['OPEN', 'PARTIALLY_FILLED']);
      const target = open[o.pick % Math.max(1, open.length)];
      return target === undefined ? '' : asText(await r.e.orders.cancelOrder(target.strategyId, target.clientOrderId));
    }
  }
}

describe('a limit placement answered at once in process', () => {
  it('property: the same outcomes, journal rows and venue orders as the async path', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const now = rig(true);
        const full = rig(false);
        for (const o of ops) {
          expect(await apply(now, o)).toBe(await apply(full, o));
          expect(asText(now.e.store.orders.all())).toBe(asText(full.e.store.orders.all()));
          expect(asText(now.account.openOrders())).toBe(asText(full.account.openOrders()));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('turns a list the validation refuses into refused items, as the async path does', async () => {
    const now = rig(true);
    const full = rig(false);
    const bad: LimitOrderSpec[] = [
      { market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: at(-1) },
      { market: 'BTC_USDT', side: 'buy', amount: dec('-1'), price: at(-1) },
    ];
    const a = await now.e.orders.placeLimitOrders('grid', bad);
    expect(a.map((o) => o.status)).toEqual(['not_sent', 'not_sent']);
    expect(asText(a)).toBe(asText(await full.e.orders.placeLimitOrders('grid', bad)));
    expect(asText(now.e.store.orders.all())).toBe(asText(full.e.store.orders.all()));
  });
});

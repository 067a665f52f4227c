/**
 * The credit check's answer known without a request (`ExchangeGateway.creditLineKnown`, the
 * in-process gateway's kept "no active loan"): the job then reports at once. On accounts without a
 * loan, with one and without the credit line, over random price moves, trading states set by the
 * job itself and by others, and both recording modes, a job over a gateway offering it must give
 * the reports, the credit snapshots, the trading state and the failures of a job over a gateway
 * that asks the venue every time.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { CreditJob } from '../../../src/engine/credit-job.js';
import { TradingStateController, type TradingState } from '../../../src/engine/trading-state.js';
import type { ExchangeGateway } from '../../../src/exchange/gateway.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { Prng } from '../../../src/simulator/prng.js';
import type { AccountOptions } from '../../../src/simulator/options.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1, 22);
const LOAN = { asset: 'USDT', amount: '30000', collateralAsset: 'BTC', collateralAmount: '1' };
const ACCOUNTS: Omit<AccountOptions, 'apiKey' | 'apiSecret'>[] = [
  { balances: { USDT: '1000' } },
  { balances: { USDT: '1000' }, loan: LOAN },
  { balances: { USDT: '1000' }, creditLineEnabled: false },
];
const STATES: [TradingState, string][] = [
  ['ACTIVE', 'operator'],
  ['REDUCE_ONLY', 'credit: LTV high'],
  ['REDUCE_ONLY', 'operator'],
  ['HALTED', 'drawdown'],
];

interface Side {
  store: Store;
  state: TradingStateController;
  job: CreditJob;
  /** The next store transaction fails. */
  failNext: { on: boolean };
}

function side(gateway: ExchangeGateway, clock: ManualClock, recordEveryCheck: boolean): Side {
  const store = memoryStore({ clock });
  const failNext = { on: false };
  // The job's writes go through `tx`: a failing one is a store fault the check must pass on.
  const failing = new Proxy(store, {
    get: (target, key) =>
      key === 'tx'
        ? <T>(fn: () => T): T => {
            if (failNext.on) {
              failNext.on = false;
              throw new Error('store down');
            }
            return target.tx(fn);
          }
        : Reflect.get(target, key),
  });
  const state = new TradingStateController(store, clock, silentLogger());
  return { store, state, failNext, job: new CreditJob({ store: failing, gateway, clock, logger: silentLogger(), tradingState: state }, { recordEveryCheck }) };
}

async function outcome(s: Side): Promise<unknown> {
  const report = await s.job.runOnce().then(
    (r) => JSON.parse(JSON.stringify(r)) as unknown,
    (err: unknown) => `failed: ${(err as Error).message}`,
  );
  return { report, state: s.state.get(), reason: s.state.reason(), latest: JSON.parse(JSON.stringify(s.store.credit.latest() ?? null)) as unknown };
}

describe('the credit check with the answer known without a request', () => {
  it('reports, records and moves the trading state as the check that asks the venue', async () => {
    let known = 0;
    for (const [a, account] of ACCOUNTS.entries()) {
      for (const recordEveryCheck of [true, false]) {
        const clock = new ManualClock(T0);
        const venue = new Venue(clock, 5 + a, defaultMarkets(), 60_000);
        const acc = venue.addAccount({ apiKey: 'k', apiSecret: 's', ...account });
        const api = inProcessApi(venue, acc);
        const catchUp = (): void => venue.catchUp();
        const keptGateway = inProcessGateway(api, acc, { catchUp });
        const fullGateway = inProcessGateway(api, acc, { catchUp, keepReads: false });
        expect(keptGateway.creditLineKnown).toBeDefined();
        expect(fullGateway.creditLineKnown).toBeUndefined();
        const sides = [side(fullGateway, clock, recordEveryCheck), side(keptGateway, clock, recordEveryCheck)];
        const rng = new Prng(17 + a);
        for (let i = 0; i < 40; i++) {
          clock.advance(Math.floor(rng.next() * 3) * 60_000);
          if (rng.next() < 0.3) {
            const [to, why] = STATES[Math.floor(rng.next() * STATES.length)] as [TradingState, string];
            for (const s of sides) if (s.state.get() !== to) s.state.set(to, why);
          }
          const fail = rng.next() < 0.1;
          for (const s of sides) s.failNext.on = fail;
          const before = api.received();
          const [full, kept] = [await outcome(sides[0] as Side), await outcome(sides[1] as Side)];
          expect(kept, `account ${a}, every check ${recordEveryCheck}, step ${i}`).toEqual(full);
          // The full side asked once; the kept side too, unless its answer was known.
          if (api.received() - before === 1) known++;
          for (const s of sides) s.failNext.on = false;
        }
      }
    }
    // The known answer was taken (no request) in most checks of the account without a loan.
    expect(known).toBeGreaterThan(50);
  });
});

import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { Account } from '../../../src/simulator/account.js';
import { Market } from '../../../src/simulator/market.js';
import { applyPositionFill } from '../../../src/simulator/positions.js';
import type { Side } from '../../../src/core/orders.js';
import type { PositionSide } from '../../../src/simulator/types.js';

const PERP = { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', volatility: '0' };

function setUp(hedgeMode = false): { account: Account; market: Market; fill(ps: PositionSide, side: Side, amount: string, price: string): void } {
  const account = new Account({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' }, hedgeMode });
  const market = new Market(PERP, 1);
  return { account, market, fill: (ps, side, amount, price) => applyPositionFill(account, market, ps, side, dec(amount), dec(price)) };
}

function view(account: Account, ps: PositionSide): string[] {
  const p = account.position('BTC_PERP', ps);
  return [p.amount, p.cost, p.margin, p.realisedPnl].map((d) => d.toFixed());
}

describe('applyPositionFill', () => {
  it('one-way long: a partial reduce releases cost and margin in proportion and pays the PnL', () => {
    const { account, fill } = setUp();
    fill('BOTH', 'buy', '2', '100'); // margin 20, cost 200
    expect(account.balance('USDT').toFixed()).toBe('980');
    fill('BOTH', 'sell', '0.5', '110'); // releases 5 margin and 50 cost, PnL 55 - 50 = 5
    expect(view(account, 'BOTH')).toEqual(['1.5', '150', '15', '5']);
    expect(account.balance('USDT').toFixed()).toBe('990');
  });

  it('one-way short: a partial reduce pays cost minus value', () => {
    const { account, fill } = setUp();
    fill('BOTH', 'sell', '2', '100');
    fill('BOTH', 'buy', '0.5', '90'); // PnL 50 - 45 = 5
    expect(view(account, 'BOTH')).toEqual(['-1.5', '150', '15', '5']);
    expect(account.balance('USDT').toFixed()).toBe('990');
  });

  it('one-way: an exact close releases everything; a larger fill flips', () => {
    const { account, fill } = setUp();
    fill('BOTH', 'buy', '3', '100');
    fill('BOTH', 'sell', '3', '100');
    expect(view(account, 'BOTH')).toEqual(['0', '0', '0', '0']);
    expect(account.balance('USDT').toFixed()).toBe('1000');
    fill('BOTH', 'sell', '1', '100');
    fill('BOTH', 'buy', '1.5', '80'); // closes 1 (PnL 20), opens 0.5 long at 80
    expect(view(account, 'BOTH')).toEqual(['0.5', '40', '4', '20']);
  });

  it('hedge mode: a reducing fill beyond the position is not applied to any position', () => {
    const { account, fill } = setUp(true);
    fill('LONG', 'buy', '1', '100');
    fill('LONG', 'sell', '1.5', '100');
    expect(view(account, 'LONG')).toEqual(['0', '0', '0', '0']);
    expect(account.balance('USDT').toFixed()).toBe('1000');
    fill('SHORT', 'buy', '1', '100'); // reducing an empty SHORT: nothing happens
    expect(view(account, 'SHORT')).toEqual(['0', '0', '0', '0']);
    expect(account.balance('USDT').toFixed()).toBe('1000');
    fill('SHORT', 'sell', '1', '100');
    expect(view(account, 'SHORT')).toEqual(['-1', '100', '10', '0']);
  });
});

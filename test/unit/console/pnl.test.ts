/** PnL per strategy for the dashboard: realised gross and net of fees, unrealised at the last price, exact decimals. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { pnlByStrategy } from '../../../src/console/pnl.js';
import { unrealisedAt as unrealised } from '../../../src/engine/position-pnl.js';
import { derivePositions } from '../../../src/engine/positions.js';
import type { PositionFill } from '../../../src/model/fills.js';

let id = 0;
function fill(strategyId: string | null, side: 'buy' | 'sell', amount: string, price: string, fee: string, feeAsset = 'USDT'): PositionFill {
  const a = dec(amount);
  const p = dec(price);
  return { dealId: ++id, strategyId, market: 'BTC_USDT', side, timeMs: id, amount: a, price: p, quote: a.mul(p), fee: dec(fee), feeAsset };
}

const prices = { BTC_USDT: { base: 'BTC', last: dec('61000') } };

describe('pnlByStrategy', () => {
  it('splits realised gross, fees, realised net and unrealised', () => {
    const positions = derivePositions([
      fill('g', 'buy', '0.002', '60000', '0.12'),
      fill('g', 'sell', '0.001', '60500', '0.0605'),
    ]);
    const [row] = pnlByStrategy(positions, prices, 'USDT');
    expect(row?.realisedGross.toFixed()).toBe('0.5');
    expect(row?.fees?.toFixed()).toBe('0.1805');
    expect(row?.realisedNet?.toFixed()).toBe('0.3195');
    // 0.001 BTC left, bought at 60000, worth 61000.
    expect(row?.unrealised?.toFixed()).toBe('1');
  });

  it('values a fee paid in the base asset at the last price', () => {
    const positions = derivePositions([fill('g', 'buy', '0.001', '60000', '0.000001', 'BTC')]);
    expect(pnlByStrategy(positions, prices, 'USDT')[0]?.fees?.toFixed()).toBe('0.061');
  });

  it('counts a short position as gaining when the price falls', () => {
    const [p] = derivePositions([fill('s', 'sell', '0.01', '62000', '0')]);
    expect(unrealised(p!, dec('61000'))?.toFixed()).toBe('10');
    expect(unrealised(p!, undefined)).toBeNull();
  });

  it('keeps strategies apart and reports external fills under null', () => {
    const rows = pnlByStrategy(derivePositions([fill('a', 'buy', '0.001', '60000', '0'), fill(null, 'buy', '0.001', '60000', '0')]), prices, 'USDT');
    expect(rows.map((r) => r.strategyId).sort()).toEqual([null, 'a'].sort());
  });
});

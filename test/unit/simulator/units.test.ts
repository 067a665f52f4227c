import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { isLoopback } from '../../../src/simulator/admin-guard.js';
import { Market } from '../../../src/simulator/market.js';
import { Prng } from '../../../src/simulator/prng.js';
import { RateLimiter } from '../../../src/simulator/rate-limit.js';
import { DEFAULT_RATE_LIMITS } from '../../../src/simulator/options.js';
import { tempDir } from '../../support/temp-dir.js';

describe('isLoopback', () => {
  it('accepts loopback peers only', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.1.2.3']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:192.168.1.2', '', undefined]) expect(isLoopback(a)).toBe(false);
  });
});

describe('Prng', () => {
  it('derives independent reproducible streams', () => {
    const a = Prng.derive(5, 'x');
    const b = Prng.derive(5, 'x');
    const c = Prng.derive(5, 'y');
    const sa = Array.from({ length: 5 }, () => a.nextUint32());
    expect(sa).toEqual(Array.from({ length: 5 }, () => b.nextUint32()));
    expect(sa).not.toEqual(Array.from({ length: 5 }, () => c.nextUint32()));
  });
});

describe('Market price process', () => {
  it('keeps prices positive multiples of the tick, without exponent notation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (seed) => {
        const m = new Market({ name: 'X_USDT', startPrice: '0.0003', tick: '0.0000001', step: '1', volatility: '0.05' }, seed);
        for (let i = 0; i < 50; i++) {
          m.advance();
          expect(m.price.gt(0)).toBe(true);
          expect(m.price.mod(new Decimal('0.0000001')).isZero()).toBe(true);
          expect(m.price.toFixed()).not.toMatch(/e/i);
          expect(m.volumeLeft.mod(1).isZero()).toBe(true);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('Market options', () => {
  const rules = (m: Market) => ({
    stock: m.stock,
    money: m.money,
    isPerp: m.isPerp,
    minAmount: m.minAmount.toFixed(),
    minTotal: m.minTotal.toFixed(),
    makerFee: m.makerFee.toFixed(),
    takerFee: m.takerFee.toFixed(),
    leverage: m.leverage.toFixed(),
    maxLeverage: m.maxLeverage,
    takerDepth: m.takerDepth?.toFixed(),
    available: m.available,
    volumeLeft: m.volumeLeft.toFixed(),
  });

  it('fills the documented defaults; a _PERP market settles in USDT', () => {
    expect(rules(new Market({ name: 'ETH_BTC', startPrice: '0.05', tick: '0.00001', step: '0.01' }, 1))).toEqual({
      stock: 'ETH',
      money: 'BTC',
      isPerp: false,
      minAmount: '0.01',
      minTotal: '5.05',
      makerFee: '0.001',
      takerFee: '0.001',
      leverage: '10',
      maxLeverage: 100,
      takerDepth: undefined,
      available: true,
      volumeLeft: '1',
    });
    const perp = new Market({ name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001' }, 1);
    expect([perp.stock, perp.money, perp.isPerp]).toEqual(['BTC', 'USDT', true]);
  });

  it('takes every given option and refuses a name without two parts', () => {
    const m = new Market(
      {
        name: 'X_Y',
        stock: 'XX',
        money: 'YY',
        startPrice: '2',
        tick: '0.1',
        step: '0.5',
        minAmount: '1',
        minTotal: '3',
        makerFee: '0.002',
        takerFee: '0.003',
        volumePerStep: '4',
        takerDepth: '7',
        leverage: 5,
        maxLeverage: 20,
        available: false,
      },
      1,
    );
    expect(rules(m)).toEqual({
      stock: 'XX',
      money: 'YY',
      isPerp: false,
      minAmount: '1',
      minTotal: '3',
      makerFee: '0.002',
      takerFee: '0.003',
      leverage: '5',
      maxLeverage: 20,
      takerDepth: '7',
      available: false,
      volumeLeft: '4',
    });
    expect(m.price.toFixed()).toBe('2');
    for (const name of ['BTC', '_USDT']) expect(() => new Market({ name, startPrice: '1', tick: '1', step: '1' }, 1)).toThrow(RangeError);
  });
});

describe('RateLimiter', () => {
  it('slides its window', () => {
    const r = new RateLimiter({ ...DEFAULT_RATE_LIMITS, public: { limit: 2, windowMs: 1000 } });
    expect([r.allow('public', 0), r.allow('public', 500), r.allow('public', 900)]).toEqual([true, true, false]);
    expect(r.allow('public', 1000)).toBe(true);
    expect(r.allow('public', 1100)).toBe(false);
    expect(r.allow('public', 1500)).toBe(true);
  });
});

describe('Market CSV replay', () => {
  it('replays one row per step, skips a header, then holds the last price', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(tempDir('sim-csv-'), 'p.csv');
    writeFileSync(file, 'time,price\n1,100.5\n2,101\n3,99.25\n');
    const m = new Market({ name: 'BTC_USDT', startPrice: '1', tick: '0.01', step: '0.001', priceFile: file }, 1);
    const seen = [m.price.toFixed()];
    for (let i = 0; i < 4; i++) {
      m.advance();
      seen.push(m.price.toFixed());
    }
    expect(seen).toEqual(['100.5', '101', '99.25', '99.25', '99.25']);
  });
});

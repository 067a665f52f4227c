/**
 * The paper venue's record codec (src/simulator/persist/): every kind of record survives
 * encode → read exactly, optional fields absent stay absent, every decimal is stored as its
 * exact plain string (tiny, huge, negative), and a bad field is refused by name.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { Account } from '../../../src/simulator/account.js';
import {
  accountSnapshot,
  readAccount,
  readClock,
  readConditional,
  readDeal,
  readFlexRecord,
  readMarketState,
  readOrder,
} from '../../../src/simulator/persist/codec.js';
import { Fields, encode } from '../../../src/simulator/persist/fields.js';
import type { ConditionalRecord, Deal, FlexRecord, SimOrder } from '../../../src/simulator/types.js';

const d = (s: string): Decimal => new Decimal(s);
const roundTrip = <T>(value: unknown, read: (f: Fields) => T): T => read(Fields.parse('x', encode(value)));

const leg: SimOrder = {
  orderId: 17,
  clientOrderId: '',
  market: 'BTC_PERP',
  side: 'sell',
  type: 'stop limit',
  kind: 'collateral',
  createdMs: 1_700_000_000_123,
  mtimeMs: 1_700_000_000_456,
  amount: d('0.000000000000000001'),
  price: d('123456789012345678901234567890.123456789'),
  left: d('0.000000000000000001'),
  dealStock: d('0'),
  dealMoney: d('0'),
  dealFee: d('0'),
  postOnly: false,
  ioc: false,
  rpi: false,
  status: 'NEW',
  positionSide: 'BOTH',
  lockAsset: 'USDT',
  locked: d('0'),
  lockPerUnit: d('0'),
  ocoId: 16,
  activationPrice: d('95.5'),
  activationCondition: 'lte',
  activated: 0,
};

const parent: SimOrder = {
  ...leg,
  orderId: 14,
  clientOrderId: 'p1',
  type: 'limit',
  side: 'buy',
  status: 'PARTIALLY_FILLED',
  dealStock: d('0.1'),
  dealMoney: d('9.9'),
  dealFee: d('-0.00099'),
  locked: d('1.000000000000000001'),
  lockPerUnit: d('10.000000000000000001'),
  oto: { otoId: 15, stopLoss: d('95.5'), takeProfit: d('105') },
};
delete parent.ocoId;
delete parent.activationPrice;
delete parent.activationCondition;
delete parent.activated;

describe('paper venue record codec', () => {
  it('orders: a leg with its activation fields and a parent with its OTO, every decimal exact', () => {
    for (const o of [leg, parent]) {
      const back = roundTrip(o, readOrder);
      expect(back).toEqual(o);
      expect(back.price.toFixed()).toBe(o.price.toFixed());
      expect(back.amount.toFixed()).toBe(o.amount.toFixed());
    }
    expect('ocoId' in roundTrip(parent, readOrder)).toBe(false);
    expect(encode(leg)).toContain('"amount":"0.000000000000000001"');
    expect(encode(leg)).toContain('"price":"123456789012345678901234567890.123456789"');
  });

  it('OTO and OCO records, one-sided ones included; deals; flex ledger rows', () => {
    const records: ConditionalRecord[] = [
      { type: 'oto', id: 15, parentOrderId: 14, stopLoss: d('95.5'), active: false },
      { type: 'oco', id: 16, market: 'BTC_PERP', otoId: 15, stopLossOrderId: 17, takeProfitOrderId: 18, active: true },
      { type: 'oco', id: 19, market: 'BTC_PERP', otoId: 15, takeProfitOrderId: 20, active: false },
    ];
    for (const r of records) expect(roundTrip(r, readConditional)).toEqual(r);
    const deal: Deal = { id: 21, orderId: 14, clientOrderId: 'p1', market: 'BTC_PERP', side: 'buy', role: 2, amount: d('0.1'), price: d('99'), deal: d('9.9'), fee: d('0.005445'), feeAsset: 'USDT', timeMs: 1 };
    expect(roundTrip(deal, readDeal)).toEqual(deal);
    const row: FlexRecord = { createdMs: 86_400_000, planId: 'p', investmentId: 'i', currency: 'USDT', amount: d('0.00000001'), transactionId: 't', actionType: 4 };
    expect(roundTrip(row, readFlexRecord)).toEqual(row);
  });

  it('accounts: balances, held, signed positions, flex, loan, nonces beyond 2^53', () => {
    const a = new Account({ apiKey: 'k', apiSecret: 'never stored', hedgeMode: true, loan: { asset: 'USDT', amount: '20', collateralAsset: 'BTC', collateralAmount: '1', marginCallLtv: '0.7' } });
    a.balances.set('USDT', d('-0.000000000000000001'));
    a.locked.set('BTC', d('0.5'));
    const pos = a.position('BTC_PERP', 'SHORT');
    Object.assign(pos, { amount: d('-0.3'), cost: d('30'), margin: d('3'), realisedPnl: d('-1.25') });
    a.flex.push({ planId: 'p', investmentId: 'i', currency: 'USDT', amount: d('500.5'), dailyRate: d('0.001'), status: 'CLOSED' });
    a.lastNonce = 123456789012345678901234n;
    a.windowNonces.set('1700000000000', 1_700_000_000_000);
    const json = encode(accountSnapshot(a));
    expect(json).not.toContain('never stored');
    const back = readAccount(Fields.parse('accounts[0]', json));
    expect(back).toEqual(accountSnapshot(a));
    expect(back.lastNonce).toBe('123456789012345678901234');
    expect(back.balances.get('USDT')?.toFixed()).toBe('-0.000000000000000001');
  });

  it('market state and the clock', () => {
    const m = { available: true, price: d('60000.1'), volumeLeft: d('0.25'), high: d('61000'), low: d('59000'), stockVolume: d('1.5'), moneyVolume: d('90000.15'), prng: { price: 4294967295, jump: 0, volume: 7 }, replayIndex: 3 };
    expect(roundTrip(m, readMarketState)).toEqual(m);
    const c = { startMs: 1_700_000_000_000, offsetMs: 5000, nextStepMs: 1_700_000_006_000, seq: 1_700_000_000_000_042, ids: 12345 };
    expect(roundTrip(c, readClock)).toEqual(c);
  });

  it('refuses a bad record naming where: a number for a decimal, a missing field, an unknown status, not JSON', () => {
    const bad = (patch: Record<string, unknown>): unknown => ({ ...JSON.parse(encode(parent)), ...patch });
    expect(() => readOrder(new Fields('orders[3]', bad({ price: 99 })))).toThrow('orders[3].price: expected a decimal string, found 99');
    expect(() => readOrder(new Fields('orders[3]', bad({ left: '1e-5' })))).toThrow('orders[3].left: expected a decimal string, found "1e-5"');
    expect(() => readOrder(new Fields('orders[3]', bad({ market: undefined })))).toThrow('orders[3].market: expected a string, found nothing');
    expect(() => readOrder(new Fields('orders[3]', bad({ status: 'OPEN' })))).toThrow('orders[3].status: expected one of NEW, PARTIALLY_FILLED, FILLED, CANCELLED');
    expect(() => readOrder(new Fields('orders[3]', bad({ oto: { otoId: 'x' } })))).toThrow('orders[3].oto.otoId: expected a number');
    expect(() => Fields.parse('clock', '{')).toThrow('clock: not JSON');
  });
});

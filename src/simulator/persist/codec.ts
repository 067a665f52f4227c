/**
 * The paper venue's records as stored: each one JSON (see fields.ts `encode`, Decimals as
 * strings) and read back field by field, so a damaged file is refused with the place named
 * instead of trading on half-read state.
 */
import type { Decimal } from '../../core/decimal.js';
import type { Account } from '../account.js';
import type { MarketSnapshot } from '../market.js';
import type { LoanOptions } from '../options.js';
import type { ConditionalRecord, Deal, FlexInvestment, FlexRecord, Position, SimOrder } from '../types.js';
import type { VenueClockState } from '../venue.js';
import type { Fields } from './fields.js';

const SIDES = ['buy', 'sell'] as const;
const POSITION_SIDES = ['LONG', 'SHORT', 'BOTH'] as const;
const STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED'] as const;

/** One account apart from its growing histories (orders, deals, conditionals, flex ledger: tables of their own). */
export interface AccountSnapshot {
  apiKey: string;
  hedgeMode: boolean;
  loan: LoanOptions | null;
  creditLineEnabled: boolean;
  flexEnabled: boolean;
  balances: Map<string, Decimal>;
  locked: Map<string, Decimal>;
  positions: Position[];
  flex: FlexInvestment[];
  /** Strict-mode nonce high-water mark as digits (may exceed 2^53). */
  lastNonce: string | null;
  /** Window-mode nonces still inside the replay window → their ms. */
  windowNonces: Map<string, number>;
}

export function accountSnapshot(a: Account): AccountSnapshot {
  return {
    apiKey: a.apiKey,
    hedgeMode: a.hedgeMode,
    loan: a.loan ?? null,
    creditLineEnabled: a.creditLineEnabled,
    flexEnabled: a.flexEnabled,
    balances: a.balances,
    locked: a.locked,
    positions: [...a.positions.values()],
    flex: a.flex,
    lastNonce: a.lastNonce === null ? null : a.lastNonce.toString(),
    windowNonces: a.windowNonces,
  };
}

function readLoan(f: Fields): LoanOptions {
  const opt = (k: string): Record<string, string> => (f.has(k) ? { [k]: f.str(k) } : {});
  return {
    asset: f.str('asset'),
    amount: f.str('amount'),
    collateralAsset: f.str('collateralAsset'),
    collateralAmount: f.str('collateralAmount'),
    ...opt('initialLtv'),
    ...opt('marginCallLtv'),
    ...opt('liquidationLtv'),
  };
}

function readPosition(f: Fields): Position {
  return {
    market: f.str('market'),
    positionSide: f.oneOf('positionSide', POSITION_SIDES),
    amount: f.dec('amount'),
    cost: f.dec('cost'),
    margin: f.dec('margin'),
    realisedPnl: f.dec('realisedPnl'),
  };
}

function readInvestment(f: Fields): FlexInvestment {
  return {
    planId: f.str('planId'),
    investmentId: f.str('investmentId'),
    currency: f.str('currency'),
    amount: f.dec('amount'),
    dailyRate: f.dec('dailyRate'),
    status: f.str('status'),
  };
}

function readNonce(f: Fields): string | null {
  if (!f.has('lastNonce')) return null;
  return f.digits('lastNonce');
}

export function readAccount(f: Fields): AccountSnapshot {
  return {
    apiKey: f.str('apiKey'),
    hedgeMode: f.bool('hedgeMode'),
    loan: f.has('loan') ? readLoan(f.sub('loan')) : null,
    creditLineEnabled: f.bool('creditLineEnabled'),
    flexEnabled: f.bool('flexEnabled'),
    balances: f.decMap('balances'),
    locked: f.decMap('locked'),
    positions: f.list('positions', readPosition),
    flex: f.list('flex', readInvestment),
    lastNonce: readNonce(f),
    windowNonces: f.numMap('windowNonces'),
  };
}

function readOto(f: Fields): NonNullable<SimOrder['oto']> {
  const stopLoss = f.optDec('stopLoss');
  const takeProfit = f.optDec('takeProfit');
  return { otoId: f.num('otoId'), ...(stopLoss === undefined ? {} : { stopLoss }), ...(takeProfit === undefined ? {} : { takeProfit }) };
}

/** The optional fields of an order: absent stays absent (the matching code tests `=== undefined`). */
function orderOptionals(f: Fields): Partial<SimOrder> {
  const out: Partial<SimOrder> = {};
  if (f.has('positionSide')) out.positionSide = f.oneOf('positionSide', POSITION_SIDES);
  if (f.has('oto')) out.oto = readOto(f.sub('oto'));
  if (f.has('ocoId')) out.ocoId = f.num('ocoId');
  if (f.has('activationPrice')) out.activationPrice = f.dec('activationPrice');
  if (f.has('activationCondition')) out.activationCondition = f.oneOf('activationCondition', ['gte', 'lte'] as const);
  if (f.has('activated')) out.activated = f.num('activated');
  return out;
}

export function readOrder(f: Fields): SimOrder {
  return {
    orderId: f.num('orderId'),
    clientOrderId: f.str('clientOrderId'),
    market: f.str('market'),
    side: f.oneOf('side', SIDES),
    type: f.oneOf('type', ['limit', 'stop limit'] as const),
    kind: f.oneOf('kind', ['spot', 'collateral'] as const),
    createdMs: f.num('createdMs'),
    mtimeMs: f.num('mtimeMs'),
    amount: f.dec('amount'),
    price: f.dec('price'),
    left: f.dec('left'),
    dealStock: f.dec('dealStock'),
    dealMoney: f.dec('dealMoney'),
    dealFee: f.dec('dealFee'),
    postOnly: f.bool('postOnly'),
    ioc: f.bool('ioc'),
    rpi: f.bool('rpi'),
    status: f.oneOf('status', STATUSES),
    lockAsset: f.str('lockAsset'),
    locked: f.dec('locked'),
    lockPerUnit: f.dec('lockPerUnit'),
    ...orderOptionals(f),
  };
}

export function readDeal(f: Fields): Deal {
  return {
    id: f.num('id'),
    orderId: f.num('orderId'),
    clientOrderId: f.str('clientOrderId'),
    market: f.str('market'),
    side: f.oneOf('side', SIDES),
    role: f.oneOf('role', [1, 2] as const),
    amount: f.dec('amount'),
    price: f.dec('price'),
    deal: f.dec('deal'),
    fee: f.dec('fee'),
    feeAsset: f.str('feeAsset'),
    timeMs: f.num('timeMs'),
  };
}

function optNumField<K extends string>(f: Fields, key: K): Partial<Record<K, number>> {
  const v = f.optNum(key);
  return (v === undefined ? {} : { [key]: v }) as Partial<Record<K, number>>;
}

export function readConditional(f: Fields): ConditionalRecord {
  const type = f.oneOf('type', ['oto', 'oco'] as const);
  if (type === 'oco') {
    return {
      type,
      id: f.num('id'),
      market: f.str('market'),
      otoId: f.num('otoId'),
      active: f.bool('active'),
      ...optNumField(f, 'stopLossOrderId'),
      ...optNumField(f, 'takeProfitOrderId'),
    };
  }
  const stopLoss = f.optDec('stopLoss');
  const takeProfit = f.optDec('takeProfit');
  return {
    type,
    id: f.num('id'),
    parentOrderId: f.num('parentOrderId'),
    active: f.bool('active'),
    ...(stopLoss === undefined ? {} : { stopLoss }),
    ...(takeProfit === undefined ? {} : { takeProfit }),
  };
}

export function readFlexRecord(f: Fields): FlexRecord {
  return {
    createdMs: f.num('createdMs'),
    planId: f.str('planId'),
    investmentId: f.str('investmentId'),
    currency: f.str('currency'),
    amount: f.dec('amount'),
    transactionId: f.str('transactionId'),
    actionType: f.num('actionType'),
  };
}

export function readMarketState(f: Fields): MarketSnapshot {
  const p = f.sub('prng');
  return {
    available: f.bool('available'),
    price: f.dec('price'),
    volumeLeft: f.dec('volumeLeft'),
    high: f.dec('high'),
    low: f.dec('low'),
    stockVolume: f.dec('stockVolume'),
    moneyVolume: f.dec('moneyVolume'),
    prng: { price: p.num('price'), jump: p.num('jump'), volume: p.num('volume') },
    replayIndex: f.num('replayIndex'),
  };
}

export function readClock(f: Fields): VenueClockState {
  return { startMs: f.num('startMs'), offsetMs: f.num('offsetMs'), nextStepMs: f.num('nextStepMs'), seq: f.num('seq'), ids: f.num('ids') };
}

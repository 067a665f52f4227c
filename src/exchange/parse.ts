/**
 * Wire → domain (docs/architecture.md §8.1 and §8.2): Decimal money, ms timestamps, safe integer ids,
 * explicit enum maps, venue words turned into domain words. Tolerant of every variant listed in
 * docs/live-service.md, strict about everything else: an unknown status, type or shape is a
 * `BadResponseError` naming the endpoint and field, never a guess. Signs and time ranges are
 * checked by the field readers (fields.ts). A reply sample for every parser: `REPLY_SAMPLES` in
 * samples.ts, named in each parser's comment.
 */
import { BadResponseError } from '../core/errors.js';
import { ZERO, type Decimal } from '../core/decimal.js';
import type { ConditionalLeg, ConditionalPage, ConditionalRecord } from '../model/conditional.js';
import type { Fill } from '../model/fills.js';
import type { OtoInfo, PositionSide, VenueOrder, VenueOrderStatus } from '../model/venue-orders.js';
import type { Side } from '../core/orders.js';
import { isRecord } from '../core/records.js';
import { Reader } from './fields.js';

/** Venue status spellings (spec + live) → normalised status. */
export function normaliseStatus(raw: string): VenueOrderStatus | undefined {
  switch (raw) {
    case 'NEW':
    case 'OPEN':
      return 'OPEN';
    case 'PARTIALLY_FILLED':
      return 'PARTIALLY_FILLED';
    case 'FILLED':
      return 'FILLED';
    case 'CANCELLED':
    case 'CANCELED':
    case 'CANCELED_STP':
    case 'CANCELED_TAKER_BAND':
      return 'CANCELLED';
    default:
      // AUTO_CANCELED_* (any suffix) are terminal cancels too; everything else is unknown.
      return /^AUTO_CANCELL?ED_[A-Z0-9_]+$/.test(raw) ? 'CANCELLED' : undefined;
  }
}

function side(r: Reader, field = 'side'): Side {
  const v = r.str(field);
  if (v !== 'buy' && v !== 'sell') r.fail(field, 'expected buy or sell');
  return v;
}

function status(r: Reader, field = 'status'): { status: VenueOrderStatus; rawStatus: string } {
  const raw = r.str(field);
  const s = normaliseStatus(raw);
  if (s === undefined) r.fail(field, `unknown order status ${JSON.stringify(raw.slice(0, 40))}`);
  return { status: s, rawStatus: raw };
}

function positionSide(r: Reader, field = 'positionSide'): PositionSide | undefined {
  if (!r.has(field)) return undefined;
  const v = r.str(field);
  if (v !== 'LONG' && v !== 'SHORT' && v !== 'BOTH') r.fail(field, 'expected LONG, SHORT or BOTH');
  return v;
}

/** An Order (docs/api-v4.md §2.1), from placement or cancel. Samples: `ORDER_SAMPLE`, `REPLY_SAMPLES.collateral`, `.cancel`. */
export function parseOrder(endpoint: string, value: unknown, path = ''): VenueOrder {
  const r = Reader.of(endpoint, value, path);
  const st = status(r);
  const order: VenueOrder = {
    orderId: r.id('orderId'),
    clientOrderId: r.optStr('clientOrderId') ?? '',
    market: r.str('market'),
    side: side(r),
    type: r.str('type'),
    timestampMs: r.secondsToMs('timestamp'),
    amount: r.dec('amount'),
    price: r.dec('price'),
    filledBase: r.dec('dealStock'),
    filledQuote: r.dec('dealMoney'),
    remaining: r.dec('left'),
    // Signed: a maker rebate may show as a negative fee.
    fee: r.signedDec('dealFee'),
    status: st.status,
    rawStatus: st.rawStatus,
    postOnly: r.optBool('postOnly', false),
    ioc: r.optBool('ioc', false),
    rpi: r.optBool('rpi', false),
  };
  const stp = r.optStr('stp');
  if (stp !== undefined) order.stp = stp;
  const ps = positionSide(r);
  if (ps !== undefined) order.positionSide = ps;
  if (r.has('oto')) order.oto = parseOto(r.child('oto'));
  return order;
}

function parseOto(r: Reader): OtoInfo {
  const oto: OtoInfo = { otoId: r.id('otoId') };
  const sl = r.optDec('stopLoss');
  const tp = r.optDec('takeProfit');
  if (sl !== undefined) oto.stopLoss = sl;
  if (tp !== undefined) oto.takeProfit = tp;
  return oto;
}

/** Leg types: the live `margin ` prefix is removed; only the two spec types are accepted. */
function legType(r: Reader): { type: string; rawType: string } {
  const raw = r.str('type');
  const type = raw.replace(/^margin /, '');
  if (type !== 'limit' && type !== 'stop limit') r.fail('type', 'expected limit or stop limit');
  return { type, rawType: raw };
}

/** Order-like object of a conditional record (docs/api-v4.md §2.5), snake_case or camelCase. */
function parseLeg(r: Reader): ConditionalLeg {
  const t = legType(r);
  let st: VenueOrderStatus | null = null;
  if (r.has('status')) st = status(r).status;
  const leg: ConditionalLeg = {
    orderId: r.id('orderId'),
    clientOrderId: r.optStr('clientOrderId') ?? '',
    market: r.str('market'),
    side: side(r),
    type: t.type,
    rawType: t.rawType,
    status: st,
    amount: r.dec('amount'),
    price: r.dec('price'),
    filledBase: r.optDec('dealStock') ?? ZERO,
    filledQuote: r.optDec('dealMoney') ?? ZERO,
    remaining: r.has('left') ? r.dec('left') : r.dec('amount'),
    fee: r.optDec('dealFee', 'signed') ?? ZERO,
    timestampMs: r.secondsToMs('timestamp'),
  };
  addLegOptions(r, leg);
  addActivation(r, leg);
  return leg;
}

function addLegOptions(r: Reader, leg: ConditionalLeg): void {
  const mtime = r.optSecondsToMs('mtime');
  if (mtime !== undefined) leg.modifiedMs = mtime;
  const ps = positionSide(r);
  if (ps !== undefined) leg.positionSide = ps;
  const taker = r.optDec('takerFee', 'signed');
  if (taker !== undefined) leg.takerFeeRate = taker;
  const maker = r.optDec('makerFee', 'signed');
  if (maker !== undefined) leg.makerFeeRate = maker;
  const po = r.pick('post_only', 'postOnly');
  if (po !== undefined) leg.postOnly = r.bool(po);
  const stp = r.optStr('stp');
  if (stp !== undefined) leg.stp = stp;
}

/** The stop leg's trigger (docs/api-v4.md §2.5: `activated` is an integer; live may send a boolean). */
function addActivation(r: Reader, leg: ConditionalLeg): void {
  const apField = r.pick('activation_price', 'activationPrice');
  if (apField !== undefined) leg.activationPrice = r.dec(apField);
  const acField = r.pick('activation_condition', 'activationCondition');
  if (acField !== undefined) leg.activationCondition = r.str(acField);
  if (!r.has('activated')) return;
  const v = r.raw('activated');
  const raw = typeof v === 'boolean' ? Number(v) : r.int('activated');
  leg.rawActivated = raw;
  // Only 0 and 1 have a known meaning; another value is exposed as sent, never read as a yes or no.
  if (raw === 0 || raw === 1) leg.activated = raw === 1;
}

/** A price of an OTO record; absent, null or "" (the side a one-sided bracket leaves out) is none. */
function bracketPrice(r: Reader, field: string): Decimal | undefined {
  return r.raw(field) === '' ? undefined : r.optDec(field);
}

export function parseConditionalRecord(endpoint: string, value: unknown, path: string): ConditionalRecord {
  const r = Reader.of(endpoint, value, path);
  const type = r.str('type');
  if (type === 'oco') {
    // A one-sided bracket's OCO has one leg; the other is null or absent.
    const sl = r.pick('stop_loss', 'stopLoss');
    const tp = r.pick('take_profit', 'takeProfit');
    if (sl === undefined && tp === undefined) r.fail('stop_loss', 'no leg (neither stop_loss/stopLoss nor take_profit/takeProfit)');
    const rec: ConditionalRecord = { kind: 'oco', id: r.id('id') };
    if (sl !== undefined) rec.stopLoss = parseLeg(r.child(sl));
    if (tp !== undefined) rec.takeProfit = parseLeg(r.child(tp));
    return rec;
  }
  if (type === 'oto') {
    const rec: ConditionalRecord = { kind: 'oto', id: r.id('id'), parent: parseLeg(r.child('conditionalOrder')) };
    const sl = bracketPrice(r, 'stopLossPrice');
    const tp = bracketPrice(r, 'takeProfitPrice');
    if (sl !== undefined) rec.stopLossPrice = sl;
    if (tp !== undefined) rec.takeProfitPrice = tp;
    return rec;
  }
  return r.fail('type', 'expected oco or oto');
}

/**
 * Samples: `REPLY_SAMPLES.conditional` (spec), `.conditionalLive`. `readRecord` reads each
 * record (default parseConditionalRecord; the in-process venue passes one that remembers it).
 */
export function parseConditionalPage(endpoint: string, value: unknown, readRecord = parseConditionalRecord): ConditionalPage {
  const r = Reader.of(endpoint, value, '');
  return {
    limit: r.int('limit'),
    offset: r.int('offset'),
    total: r.int('total'),
    records: r.array('records').map((rec, i) => readRecord(endpoint, rec, `records[${i}]`)),
  };
}

function parseFill(endpoint: string, value: unknown, path: string, market: string | undefined): Fill {
  const r = Reader.of(endpoint, value, path);
  const role = r.int('role');
  if (role !== 1 && role !== 2) r.fail('role', 'expected 1 (maker) or 2 (taker)');
  const m = r.optStr('market') ?? market ?? r.fail('market', 'missing (flat reply without market)');
  const fill: Fill = {
    dealId: r.id('id'),
    orderId: r.id('orderId'),
    clientOrderId: r.optStr('clientOrderId') ?? '',
    market: m,
    side: side(r),
    role: role === 1 ? 'maker' : 'taker',
    timeMs: r.secondsToMs('time'),
    amount: r.dec('amount'),
    price: r.dec('price'),
    quote: r.dec('deal'),
    fee: r.signedDec('fee'),
  };
  const feeAsset = r.optStr('feeAsset');
  if (feeAsset !== undefined) fill.feeAsset = feeAsset;
  return fill;
}

/**
 * Executed history: a flat array (with `market` in the query) or an object keyed by market
 * (without). Flattened in the order served. Samples: `REPLY_SAMPLES.executedHistoryFlat`,
 * `.executedHistoryKeyed`; each deal as `DEAL_SAMPLE`.
 */
export function parseExecutedHistory(endpoint: string, value: unknown, queryMarket: string | undefined): Fill[] {
  if (Array.isArray(value)) return value.map((v, i) => parseFill(endpoint, v, `[${i}]`, queryMarket));
  if (!isRecord(value)) throw new BadResponseError(endpoint, '(root)', 'expected an array or an object keyed by market');
  const out: Fill[] = [];
  for (const [market, deals] of Object.entries(value)) {
    if (!Array.isArray(deals)) throw new BadResponseError(endpoint, market, 'expected an array of deals');
    deals.forEach((d, i) => out.push(parseFill(endpoint, d, `${market}[${i}]`, market)));
  }
  return out;
}

/** Main balance, flex history and close, credit line (api-v4 4.8-4.11, docs/live-service.md §6). */
import { toWire } from '../../core/decimal.js';
import { SimHttpError, noActiveLoan, type FieldMessages } from '../errors.js';
import { closeInvestment } from '../flex.js';
import { loanInfo } from '../credit.js';
import { FieldReader } from '../validate.js';
import { flexRecordWire } from '../wire.js';
import type { PrivateHandler } from './types.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function forbidden(): SimHttpError {
  return new SimHttpError(403, { code: 0, message: "You don't have permission to use this endpoint.", errors: {} });
}

/** Spec shape: asset → {main_balance}; with `ticker`, the map holding just that asset. */
export const balance: PrivateHandler = (_ctx, account, body) => {
  const r = new FieldReader(body);
  const ticker = r.string('ticker', false);
  if (!r.ok) throw new SimHttpError(422, { code: 30, message: 'Validation failed', errors: r.errors });
  const out: Record<string, { main_balance: string }> = {};
  if (ticker !== undefined && ticker !== '') {
    out[ticker] = { main_balance: toWire(account.balance(ticker)) };
  } else {
    for (const [asset, amount] of [...account.balances.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      out[asset] = { main_balance: toWire(amount) };
    }
  }
  return { status: 200, body: out };
};

function flexValidation(errors: FieldMessages): SimHttpError {
  return new SimHttpError(400, { code: 0, message: 'Validation failed', errors });
}

export const flexHistory: PrivateHandler = (_ctx, account, body) => {
  if (!account.flexEnabled) throw forbidden();
  const r = new FieldReader(body);
  const limit = r.int('limit', 1, 100) ?? 50;
  const offset = r.int('offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const plan = r.string('plan', false);
  if (plan !== undefined && !UUID_RE.test(plan)) r.fail('plan', 'validation.uuid');
  const investment = r.string('investment', false);
  const transaction = r.string('transaction', false);
  const dateFrom = r.int('dateFrom', 0, Number.MAX_SAFE_INTEGER);
  const dateTo = r.int('dateTo', 0, Number.MAX_SAFE_INTEGER);
  let actionTypes: number[] | undefined;
  const rawTypes = body['actionTypes'];
  if (rawTypes !== undefined && rawTypes !== null) {
    if (!Array.isArray(rawTypes)) r.fail('actionTypes', 'validation.array');
    else {
      actionTypes = [];
      rawTypes.forEach((v: unknown, i) => {
        if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 6) actionTypes?.push(v);
        else r.fail(`actionTypes.${i}`, 'validation.in');
      });
    }
  }
  if (!r.ok) throw flexValidation(r.errors);
  const rows = account.flexLedger
    .filter((x) => plan === undefined || x.planId === plan)
    .filter((x) => investment === undefined || x.investmentId === investment)
    .filter((x) => transaction === undefined || x.transactionId === transaction)
    .filter((x) => dateFrom === undefined || Math.floor(x.createdMs / 1000) >= dateFrom)
    .filter((x) => dateTo === undefined || Math.floor(x.createdMs / 1000) <= dateTo)
    .filter((x) => actionTypes === undefined || actionTypes.includes(x.actionType))
    .map((x, i) => ({ x, i }))
    // Newest first; rows of one instant in reverse ledger order.
    .sort((a, b) => b.x.createdMs - a.x.createdMs || b.i - a.i)
    .map(({ x }) => x);
  return { status: 200, body: { data: rows.slice(offset, offset + limit).map(flexRecordWire), limit, offset } };
};

export const flexClose: PrivateHandler = (ctx, account, body) => {
  if (!account.flexEnabled) throw forbidden();
  const r = new FieldReader(body);
  const plan = r.string('plan', false);
  if (plan === undefined || plan === '') r.fail('plan', 'validation.required');
  else if (!UUID_RE.test(plan)) r.fail('plan', 'validation.uuid');
  if (!r.ok || plan === undefined) throw new SimHttpError(422, { code: 0, message: 'Validation failed', errors: r.errors });
  const res = closeInvestment(account, plan, () => ctx.venue.uuid(), ctx.venue.nowMs());
  if (!res.ok) throw new SimHttpError(422, { code: 2, message: 'Inner validation failed', errors: { investment: [res.reason] } });
  return { status: 201, body: { data: { transactionId: res.transactionId } } };
};

export const creditLine: PrivateHandler = (ctx, account) => {
  if (!account.creditLineEnabled) throw new SimHttpError(404, { code: 0, message: '', errors: {} });
  const info = loanInfo(account, (m) => ctx.venue.markets.get(m)?.price, Math.floor(ctx.venue.startMs / 1000));
  // An expected answer (a backtest asks every minute), so it is returned, not thrown: the same
  // status and body as a thrown SimHttpError, without capturing a stack for it.
  if (info === undefined) return { status: 400, body: noActiveLoan() };
  return { status: 200, body: info };
};

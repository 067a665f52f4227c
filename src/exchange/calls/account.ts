/** The account reads and writes: balances, flex history and close, the credit line; and the public market reads. */
import type { Decimal } from '../../core/decimal.js';
import { AuthError, ConfigError, InvalidRequestError } from '../../core/errors.js';
import type { CreditLineState } from '../../model/credit.js';
import type { FlexHistoryQuery, FlexPage } from '../../model/flex.js';
import type { FuturesMarket } from '../../model/markets.js';
import { classify } from '../errors.js';
import {
  FLEX_ACTION_CODES,
  parseBalanceMap,
  parseBalanceOne,
  parseFlexClose,
  parseFlexPage,
  parseFutures,
  parseLoan,
  parsePing,
} from '../parse-account.js';
import { quirkOf } from '../quirks.js';
import { validateFlexHistory } from '../validate.js';
import { ctxOf, defined, type RequestPaths } from './request-paths.js';

export async function ping(calls: RequestPaths): Promise<void> {
  return calls.read('ping', undefined, (res) => parsePing('ping', classify(ctxOf('ping'), res)));
}

export async function futures(calls: RequestPaths): Promise<FuturesMarket[]> {
  return calls.read('futures', undefined, (res) => parseFutures('futures', classify(ctxOf('futures'), res)));
}

/** All balances without `ticker`; the one asset's balance with it. */
export async function mainBalance(calls: RequestPaths, ticker?: string): Promise<Map<string, Decimal> | Decimal> {
  const ctx = ctxOf('mainBalance');
  if (ticker === undefined) {
    return calls.read('mainBalance', {}, (res) => parseBalanceMap('mainBalance', classify(ctx, res)));
  }
  if (typeof ticker !== 'string' || ticker === '') {
    throw new ConfigError('ticker must be a non-empty string', { key: 'ticker' });
  }
  return calls.read('mainBalance', { ticker }, (res) => parseBalanceOne('mainBalance', classify(ctx, res), ticker));
}

export async function flexHistory(calls: RequestPaths, query: FlexHistoryQuery): Promise<FlexPage> {
  validateFlexHistory(query);
  const { actionTypes, ...rest } = query;
  const fields = defined({ ...rest, actionTypes: actionTypes?.map((a) => FLEX_ACTION_CODES[a]) });
  const ctx = ctxOf('flexHistory');
  return calls.read('flexHistory', fields, (res) => parseFlexPage('flexHistory', classify(ctx, res)));
}

export async function closeFlex(calls: RequestPaths, plan: string): Promise<{ transactionId: string }> {
  if (typeof plan !== 'string' || plan === '') throw new InvalidRequestError('plan: must be a non-empty string', null, { plan: ['required'] });
  return calls.write('closeFlex', { plan }, ctxOf('closeFlex'), [], (json) => parseFlexClose('closeFlex', json));
}

/** "No active loan" is `{ active: false }`; a key without the feature is `AuthError('feature_unavailable')`. */
export async function creditLine(calls: RequestPaths): Promise<CreditLineState> {
  const ctx = ctxOf('creditLine');
  return calls.read('creditLine', {}, (res): CreditLineState => {
    const quirk = quirkOf('creditLine', res);
    if (quirk === 'no_active_loan') return { active: false };
    if (quirk === 'credit_line_disabled') {
      throw new AuthError('feature_unavailable', 'creditLine: HTTP 404 (credit line not enabled for this key)', { endpoint: 'creditLine', status: 404 });
    }
    return { active: true, loan: parseLoan('creditLine', classify(ctx, res)) };
  });
}

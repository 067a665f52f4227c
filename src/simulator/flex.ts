/**
 * Flexible investments: each ACTIVE investment earns once per simulated day (at UTC midnight of
 * the simulator clock) amount * dailyRate, truncated to 8 places and added to the investment
 * (a DAILY_EARNING ledger row with that exact amount). Closing pays the whole amount back to the
 * main balance (CLOSE_INVESTMENT) and leaves the investment CLOSED with amount 0.
 */
import { Decimal, dec } from '../core/decimal.js';
import type { Account } from './account.js';
import type { FlexOptions } from './options.js';
import type { Prng } from './prng.js';

export const ACTION = { INVEST: 1, REINVEST: 2, WITHDRAW: 3, DAILY_EARNING: 4, CLOSE_INVESTMENT: 5, OPEN_INVESTMENT: 6 } as const;

export const DAY_MS = 86_400_000;

/** Adds a configured investment and its INVEST ledger row. */
export function openInvestment(account: Account, opts: FlexOptions, ids: Prng, nowMs: number): void {
  const inv = {
    planId: opts.planId ?? ids.uuid(),
    investmentId: opts.investmentId ?? ids.uuid(),
    currency: opts.currency,
    amount: dec(opts.amount),
    dailyRate: dec(opts.dailyRate ?? '0.0001'),
    status: opts.status ?? 'ACTIVE',
  };
  account.flex.push(inv);
  account.flexLedger.push({
    createdMs: nowMs,
    planId: inv.planId,
    investmentId: inv.investmentId,
    currency: inv.currency,
    amount: inv.amount,
    transactionId: ids.uuid(),
    actionType: ACTION.INVEST,
  });
}

/** One day's earnings of every ACTIVE investment of the account, at `dayMs`. */
export function earnDaily(account: Account, ids: Prng, dayMs: number): void {
  for (const inv of account.flex) {
    if (inv.status !== 'ACTIVE' || inv.amount.lte(0)) continue;
    const earned = inv.amount.mul(inv.dailyRate).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    if (earned.isZero()) continue;
    inv.amount = inv.amount.plus(earned);
    account.flexLedger.push({
      createdMs: dayMs,
      planId: inv.planId,
      investmentId: inv.investmentId,
      currency: inv.currency,
      amount: earned,
      transactionId: ids.uuid(),
      actionType: ACTION.DAILY_EARNING,
    });
  }
}

/** Outcome of a close: the transaction id, or why it was refused. */
export type CloseResult = { ok: true; transactionId: string } | { ok: false; reason: string };

export function closeInvestment(account: Account, planId: string, newId: () => string, nowMs: number): CloseResult {
  const inv = account.flex.find((i) => i.planId === planId);
  if (inv === undefined) return { ok: false, reason: 'Investment not found.' };
  if (inv.status !== 'ACTIVE') return { ok: false, reason: 'Investment is not active.' };
  if (inv.amount.lte(0)) return { ok: false, reason: 'Investment amount must be greater than zero.' };
  const transactionId = newId();
  account.credit(inv.currency, inv.amount);
  account.flexLedger.push({
    createdMs: nowMs,
    planId: inv.planId,
    investmentId: inv.investmentId,
    currency: inv.currency,
    amount: inv.amount,
    transactionId,
    actionType: ACTION.CLOSE_INVESTMENT,
  });
  inv.amount = new Decimal(0);
  inv.status = 'CLOSED';
  return { ok: true, transactionId };
}

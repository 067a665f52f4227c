/**
 * Credit line: a configured loan whose current LTV is loan / (collateral * price of
 * `<collateral>_<asset>`), a fraction rounded half-even to 8 places. No interest accrues
 * (totalFunding = amount). Not modelled: margin calls, liquidation, repayments.
 */
import { Decimal, dec, toWire } from '../core/decimal.js';
import type { Account } from './account.js';

/** The wire object of api-v4 2.9, or undefined when the account has no loan. */
export function loanInfo(account: Account, priceOf: (market: string) => Decimal | undefined, createdSec: number): Record<string, unknown> | undefined {
  const loan = account.loan;
  if (loan === undefined) return undefined;
  const amount = dec(loan.amount);
  const price = priceOf(`${loan.collateralAsset}_${loan.asset}`) ?? new Decimal(0);
  const value = dec(loan.collateralAmount).mul(price);
  const ltv = value.isZero() ? new Decimal(0) : amount.div(value).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN);
  return {
    asset: loan.asset,
    amount: toWire(amount),
    totalFunding: toWire(amount),
    currentLtv: toWire(ltv),
    initialLtv: loan.initialLtv ?? '0.5',
    marginCallLtv: loan.marginCallLtv ?? '0.7',
    liquidationLtv: loan.liquidationLtv ?? '0.8',
    createdAt: createdSec,
  };
}

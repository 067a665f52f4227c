/** The credit line: the venue's loan (`CreditLineState`) and the store's snapshot of it. */
import type { Decimal } from '../core/decimal.js';

export interface Loan {
  asset: string;
  amount: Decimal;
  totalFunding: Decimal;
  currentLtv: Decimal;
  initialLtv: Decimal;
  marginCallLtv: Decimal;
  liquidationLtv: Decimal;
  createdAtMs: number;
}

/** "No active loan at the moment" is a normal state, not an error. */
export type CreditLineState = { active: true; loan: Loan } | { active: false };

/** One stored reading of the credit line (the loan's fields are null when none was active). */
export interface CreditSnapshot {
  atMs: number;
  active: boolean;
  asset: string | null;
  amount: Decimal | null;
  totalFunding: Decimal | null;
  currentLtv: Decimal | null;
  initialLtv: Decimal | null;
  marginCallLtv: Decimal | null;
  liquidationLtv: Decimal | null;
}

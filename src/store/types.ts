/**
 * Row shapes only the store hands out. The domain records it keeps (orders, fills, protective
 * legs, flex and credit) are declared once in src/model/.
 */

import type { Decimal } from '../core/decimal.js';

export interface AlertRecord {
  id: number;
  atMs: number;
  kind: string;
  subject: string;
  detail: string;
}

/** Where one asset's balance-audit window starts; balance and books are null while it waits for its first accountable audit. */
export interface AuditBaselineRow {
  asset: string;
  balance: Decimal | null;
  books: Decimal | null;
  atMs: number | null;
}

/** One balance audit's result (docs/balance-audit.md); `detail` is the JSON the audit wrote. */
export interface BalanceAuditRecord {
  id: number;
  atMs: number;
  /** `clean`, `unexplained`, `unsettled` or `started`. */
  outcome: string;
  /** Start of the oldest window judged, null when none was. */
  fromMs: number | null;
  detail: unknown;
}

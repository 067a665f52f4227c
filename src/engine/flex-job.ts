/**
 * Incremental pull of the flex investment history into the ledger. The start comes from the
 * checkpoint (the newest `createdAt` stored, ms) minus an overlap (default 1 h) so a
 * record that shows up late, or in the same second, is not lost; the overlap costs only
 * de-duplicated re-reads; every page the gateway serves; de-duplicated by transaction id; every
 * action type is kept. A partner-only 403 (`AuthError` permission_denied / feature_unavailable)
 * disables the job with ONE warning; later runs are no-ops until restart.
 */
import type { Clock } from '../core/clock.js';
import { Decimal, ZERO } from '../core/decimal.js';
import { AuthError } from '../core/errors.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { FlexRecordRow } from '../model/flex.js';

export const FLEX_CHECKPOINT = 'flex.newestCreatedMs';
export const FLEX_DISABLED = 'flex.disabled';

export interface FlexRunReport {
  status: 'ok' | 'disabled';
  pages: number;
  newRecords: number;
}

export class FlexJob {
  private disabled = false;

  constructor(
    private readonly deps: { store: Store; gateway: ExchangeGateway; clock: Clock; logger: Logger },
    private readonly overlapMs = 3_600_000,
  ) {}

  isDisabled(): boolean {
    return this.disabled;
  }

  async runOnce(): Promise<FlexRunReport> {
    if (this.disabled) return { status: 'disabled', pages: 0, newRecords: 0 };
    const { store, gateway, clock, logger } = this.deps;
    const cp = store.checkpoints.get(FLEX_CHECKPOINT);
    const checkpoint = cp === undefined ? undefined : Number.parseInt(cp.value, 10);
    const fromMs = checkpoint === undefined ? undefined : Math.max(0, checkpoint - this.overlapMs);
    const rows: FlexRecordRow[] = [];
    let pages = 0;
    try {
      for await (const page of gateway.flexRecords(fromMs === undefined ? {} : { fromMs })) {
        pages++;
        rows.push(...page);
      }
    } catch (err) {
      if (err instanceof AuthError && (err.kind === 'permission_denied' || err.kind === 'feature_unavailable')) {
        this.disabled = true;
        store.tx(() => store.meta.set(FLEX_DISABLED, `${err.code} at ${clock.now()}`));
        logger.warn({ code: err.code }, 'flex history is not available for this API key (partner-only); flex job disabled');
        return { status: 'disabled', pages, newRecords: 0 };
      }
      throw err;
    }
    let newRecords = 0;
    store.tx(() => {
      let newestMs = checkpoint ?? 0;
      for (const r of rows) {
        if (store.flex.insert(r)) newRecords++;
        newestMs = Math.max(newestMs, r.createdAtMs);
      }
      if (rows.length > 0) store.checkpoints.set(FLEX_CHECKPOINT, String(newestMs), clock.now());
      store.meta.delete(FLEX_DISABLED);
    });
    if (newRecords > 0) logger.info({ newRecords, pages }, 'flex history pulled');
    return { status: 'ok', pages, newRecords };
  }
}

/** Earnings (DAILY_EARNING) per currency per UTC day (`YYYY-MM-DD`), exact. */
export function flexEarnings(rows: readonly FlexRecordRow[]): Record<string, Record<string, Decimal>> {
  const out: Record<string, Record<string, Decimal>> = {};
  for (const r of rows) {
    if (r.actionType !== 'DAILY_EARNING') continue;
    const day = new Date(r.createdAtMs).toISOString().slice(0, 10);
    const perDay = (out[r.currency] ??= {});
    perDay[day] = (perDay[day] ?? ZERO).plus(r.amount);
  }
  return out;
}

/** Total earnings per currency, exact. */
export function flexEarningsTotal(rows: readonly FlexRecordRow[]): Record<string, Decimal> {
  const out: Record<string, Decimal> = {};
  for (const r of rows) {
    if (r.actionType === 'DAILY_EARNING') out[r.currency] = (out[r.currency] ?? new Decimal(0)).plus(r.amount);
  }
  return out;
}

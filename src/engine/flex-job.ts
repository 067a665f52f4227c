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

export interface FlexJobOptions {
  /** How far before the checkpoint a pull starts (ms). Default 1 h. */
  overlapMs?: number;
  /**
   * Default true: every run writes its pull (the checkpoint with the time of the run). False (a
   * backtest's throwaway store, daemon/engine.ts EngineOptions): a run handed the very same pages
   * as the last run that wrote (a venue that keeps its answer: src/backtest/in-process-reads.ts)
   * while nothing was written to the ledger since writes nothing: its inserts would all be
   * refused and the checkpoint keep its value; only the checkpoint's time would move.
   */
  recordEveryRun?: boolean;
}

/** The last run that wrote: the pages it was handed, the ledger version and the checkpoint after it. */
interface WrittenRun {
  pages: readonly (readonly FlexRecordRow[])[];
  version: number;
  checkpoint: number | undefined;
}

export class FlexJob {
  private disabled = false;
  private readonly overlapMs: number;
  private readonly recordEveryRun: boolean;
  private written: WrittenRun | undefined;

  constructor(
    private readonly deps: { store: Store; gateway: ExchangeGateway; clock: Clock; logger: Logger },
    options: FlexJobOptions = {},
  ) {
    this.overlapMs = options.overlapMs ?? 3_600_000;
    this.recordEveryRun = options.recordEveryRun ?? true;
  }

  isDisabled(): boolean {
    return this.disabled;
  }

  async runOnce(): Promise<FlexRunReport> {
    if (this.disabled) return { status: 'disabled', pages: 0, newRecords: 0 };
    const written = this.keptRun();
    const checkpoint = written !== undefined ? written.checkpoint : this.storedCheckpoint();
    const fromMs = checkpoint === undefined ? undefined : Math.max(0, checkpoint - this.overlapMs);
    const handed: (readonly FlexRecordRow[])[] = [];
    const pulled = await this.pull(fromMs, handed);
    const pages = handed.length;
    if (!pulled) return { status: 'disabled', pages, newRecords: 0 };
    if (written !== undefined && samePages(written.pages, handed)) return { status: 'ok', pages, newRecords: 0 };
    this.written = undefined;
    const rows = handed.flat();
    const { newRecords, newestMs } = this.write(rows, checkpoint);
    if (!this.recordEveryRun) this.written = { pages: handed, version: this.deps.store.flex.version, checkpoint: rows.length > 0 ? newestMs : checkpoint };
    if (newRecords > 0) this.deps.logger.info({ newRecords, pages }, 'flex history pulled');
    return { status: 'ok', pages, newRecords };
  }

  /** Every page the gateway serves from `fromMs`, into `handed`; false when the key may not read the history (the job stops). */
  private async pull(fromMs: number | undefined, handed: (readonly FlexRecordRow[])[]): Promise<boolean> {
    const { store, gateway, clock, logger } = this.deps;
    try {
      for await (const page of gateway.flexRecords(fromMs === undefined ? {} : { fromMs })) handed.push(page);
      return true;
    } catch (err) {
      if (err instanceof AuthError && (err.kind === 'permission_denied' || err.kind === 'feature_unavailable')) {
        this.disabled = true;
        store.tx(() => store.meta.set(FLEX_DISABLED, `${err.code} at ${clock.now()}`));
        logger.warn({ code: err.code }, 'flex history is not available for this API key (partner-only); flex job disabled');
        return false;
      }
      throw err;
    }
  }

  /** Stores the rows (de-duplicated by transaction id) and moves the checkpoint to the newest. */
  private write(rows: readonly FlexRecordRow[], checkpoint: number | undefined): { newRecords: number; newestMs: number } {
    const { store, clock } = this.deps;
    let newRecords = 0;
    let newestMs = checkpoint ?? 0;
    store.tx(() => {
      for (const r of rows) {
        if (store.flex.insert(r)) newRecords++;
        newestMs = Math.max(newestMs, r.createdAtMs);
      }
      if (rows.length > 0) store.checkpoints.set(FLEX_CHECKPOINT, String(newestMs), clock.now());
      store.meta.delete(FLEX_DISABLED);
    });
    return { newRecords, newestMs };
  }

  private storedCheckpoint(): number | undefined {
    const cp = this.deps.store.checkpoints.get(FLEX_CHECKPOINT);
    return cp === undefined ? undefined : Number.parseInt(cp.value, 10);
  }

  /**
   * The last run that wrote, while it still describes the store: no ledger row was written since
   * (this job is the checkpoint's only writer; the ledger counts every insert, flex-credit-repos.ts).
   */
  private keptRun(): WrittenRun | undefined {
    const w = this.written;
    if (w !== undefined && w.version !== this.deps.store.flex.version) this.written = undefined;
    return this.written;
  }
}

/** The very same page objects (a kept answer), in the same order. */
function samePages(a: readonly (readonly FlexRecordRow[])[], b: readonly (readonly FlexRecordRow[])[]): boolean {
  return a.length === b.length && a.every((page, i) => page === b[i]);
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

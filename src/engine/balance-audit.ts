/**
 * The balance audit (docs/balance-audit.md): on its schedule and at start-up, each asset's main
 * balance change since its baseline is compared with what the books explain over the same window
 * (src/engine/kernels/books.ts, src/engine/kernels/balance-audit.ts); a confirmed difference
 * beyond the tolerance raises one `books_unexplained` alert per asset.
 *
 * The books lag the venue (fills arrive through the reconciler after the balance moved), so one
 * look is taken only when the books hold still around the balance read: books, balance, then a
 * reconciliation pass whose anchor is after the read (plus the flex pull and the credit check),
 * then the books again. Unchanged books with no placement, cancel or flex close in flight
 * (PENDING, UNKNOWN, PENDING_CANCEL) mean everything the balance reflects is in them; otherwise
 * the look is taken again after a pause (`settleAttempts`, `settlePauseMs`), and an audit that
 * never settles judges nothing and keeps its window.
 * A difference must show in two such looks against the same baseline before it is reported, so a
 * venue whose history trails its balance by a moment does not raise a false alarm.
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { OrderState } from '../core/orders.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { AuditBaselineRow, Store } from '../store/index.js';
import { AuditFillBook } from './audit-fill-book.js';
import type { CreditJob } from './credit-job.js';
import type { FlexJob } from './flex-job.js';
import { booksFingerprint, booksOf, type Books } from './kernels/books.js';
import { compareAssets, confirm, nextBaseline, type AssetVerdict, type Baseline, type Snapshot, type Tolerance } from './kernels/balance-audit.js';
import { HOLDING_STATES, heldByOpenOrders, holdOf, type HoldRules } from './order-holds.js';
import type { Reconciler } from './reconciler.js';

export const BOOKS_UNEXPLAINED = 'books_unexplained';

/**
 * Journal states whose effect on the balance the venue may have applied without the journal
 * knowing: a placement or cancel without its reply. A look taken while any exists is unsure.
 */
const IN_FLIGHT: readonly OrderState[] = ['PENDING', 'UNKNOWN', 'PENDING_CANCEL'];

/** What the alert and the documentation name as the usual reasons. */
export const TYPICAL_CAUSES = 'a manual trade on the same API key, a deposit or withdrawal, a venue-side correction';

export type AuditOutcome = 'clean' | 'unexplained' | 'unsettled' | 'started';

/** One asset's verdict with its money as strings (stored as JSON, shown by status). */
export interface AssetAudit {
  asset: string;
  verdict: AssetVerdict['verdict'];
  fromMs: number | null;
  toMs: number;
  actual: string;
  expected: string;
  difference: string;
  allowed: string;
}

export interface AuditResult {
  atMs: number;
  outcome: AuditOutcome;
  /** Start of the oldest window judged (null when nothing was). */
  fromMs: number | null;
  assets: AssetAudit[];
  /** Fills of orders the bot did not place inside the reported windows. */
  externalFills: number;
}

export interface BalanceAuditDeps {
  store: Store;
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  reconciler: Pick<Reconciler, 'reconcileOnce'>;
  flexJob: Pick<FlexJob, 'runOnce'>;
  creditJob: Pick<CreditJob, 'runOnce'>;
  holdRules: HoldRules;
  tolerance: Tolerance;
  /** Looks per snapshot before the audit gives up for this run. */
  settleAttempts: number;
  /** Pause between two looks, so a placement or cancel in flight can finish (ms of the clock). Default 1000. */
  settlePauseMs?: number;
}

interface Look {
  books: Books;
  /** No order or flex close whose effect on the balance the journal cannot know yet. */
  quiet: boolean;
}

const show = (v: AssetVerdict): AssetAudit => ({
  asset: v.asset,
  verdict: v.verdict,
  fromMs: v.fromMs,
  toMs: v.toMs,
  actual: v.actual.toFixed(),
  expected: v.expected.toFixed(),
  difference: v.difference.toFixed(),
  allowed: v.allowed.toFixed(),
});

const signed = (d: Decimal): string => (d.gte(0) ? `+${d.toFixed()}` : d.toFixed());
const iso = (ms: number | null): string => (ms === null ? '?' : new Date(ms).toISOString());

export class BalanceAudit {
  private last: AuditResult | null;
  private readonly fills: AuditFillBook;

  constructor(private readonly deps: BalanceAuditDeps) {
    this.fills = new AuditFillBook(deps.store);
    // An unsettled audit judged nothing: what was last judged stays the answer.
    const stored = deps.store.audit.recent(100).find((r) => r.outcome !== 'unsettled');
    this.last = stored === undefined ? null : (stored.detail as AuditResult);
  }

  /** The last audit that judged (this run's, or the store's before the first); an unsettled one does not replace it. */
  lastJudged(): AuditResult | null {
    return this.last;
  }

  async runOnce(): Promise<AuditResult> {
    const baseline = this.baseline();
    const first = await this.snapshot();
    if (first === null) return this.finish(baseline, null, []);
    let verdicts = compareAssets(baseline, first, this.deps.tolerance);
    let at = first;
    if (verdicts.some((v) => v.verdict === 'unexplained')) {
      const second = await this.snapshot();
      if (second === null) return this.finish(baseline, null, []);
      verdicts = confirm(verdicts, compareAssets(baseline, second, this.deps.tolerance));
      at = second;
    }
    return this.finish(baseline, at, verdicts);
  }

  private baseline(): Baseline {
    const assets: Record<string, Baseline['assets'][string]> = {};
    for (const r of this.deps.store.audit.baseline()) {
      assets[r.asset] = r.balance === null || r.books === null || r.atMs === null ? null : { balance: r.balance, books: r.books, atMs: r.atMs };
    }
    return { atMs: this.deps.store.audit.baselineMs(), assets };
  }

  /** One look at the balance the books hold still around, or null after `settleAttempts` tries. */
  private async snapshot(): Promise<Snapshot | null> {
    const { gateway, clock } = this.deps;
    for (let attempt = 1; attempt <= this.deps.settleAttempts; attempt++) {
      const before = this.look();
      const read = await gateway.balances();
      const atMs = clock.now();
      await this.catchUp(atMs);
      const after = this.look();
      if (before.quiet && after.quiet && booksFingerprint(before.books) === booksFingerprint(after.books)) {
        return { atMs, balances: Object.fromEntries(read), books: after.books };
      }
      this.deps.logger.debug({ attempt }, 'balance audit: books moved around the balance read; looking again');
      const pause = this.deps.settlePauseMs ?? 1_000;
      if (attempt < this.deps.settleAttempts && pause > 0) await clock.sleep(pause);
    }
    return null;
  }

  /** Everything the venue did up to `atMs` into the books: a reconciliation pass anchored after it, flex records, the loan. */
  private async catchUp(atMs: number): Promise<void> {
    const { reconciler, flexJob, creditJob } = this.deps;
    // A pass already running when the balance was read may be anchored before it: then one more.
    const report = await reconciler.reconcileOnce();
    if (report.scan.toMs < atMs) await reconciler.reconcileOnce();
    await flexJob.runOnce();
    await creditJob.runOnce();
  }

  private look(): Look {
    const { store, holdRules } = this.deps;
    const unsure = store.orders.listByState(IN_FLIGHT).length + store.flex.intents(['PENDING', 'UNKNOWN']).length;
    const open = store.orders.listByState(HOLDING_STATES);
    const held = heldByOpenOrders(open, holdRules);
    const assetsOf = (market: string): { base: string; quote: string } => {
      const rule = holdRules(market);
      const [base = market, quote = market] = market.split('_');
      return rule === undefined ? { base, quote } : { base: rule.base, quote: rule.quote };
    };
    const collateralHolding = open.filter((o) => {
      const rule = holdRules(o.market);
      return o.kind === 'collateral' && rule !== undefined && holdOf(o, rule) !== null;
    });
    const loan = store.credit.latest();
    const books = booksOf({
      fillBook: this.fills.current(assetsOf),
      flex: store.flex.all(),
      loan: loan?.active === true && loan.asset !== null && loan.amount !== null ? { asset: loan.asset, amount: loan.amount } : null,
      held: held.byAsset,
      collateralHolding: [...new Set(collateralHolding.map((o) => o.market))],
      assetsOf,
    });
    // Orders of a market without a hold rule hold an unknown amount of both its assets.
    const unknownHolds = held.unruled.flatMap((m) => Object.values(assetsOf(m)));
    return { books: { ...books, inFlight: [...new Set([...books.inFlight, ...unknownHolds])].sort() }, quiet: unsure === 0 };
  }

  private finish(baseline: Baseline, at: Snapshot | null, verdicts: AssetVerdict[]): AuditResult {
    const { store, clock, logger } = this.deps;
    const atMs = at?.atMs ?? clock.now();
    const unexplained = verdicts.filter((v) => v.verdict === 'unexplained');
    const judged = verdicts.filter((v) => v.fromMs !== null && v.verdict !== 'started').map((v) => v.fromMs as number);
    const fromMs = judged.length === 0 ? null : Math.min(...judged);
    const outcome: AuditOutcome = at === null ? 'unsettled' : unexplained.length > 0 ? 'unexplained' : baseline.atMs === null ? 'started' : 'clean';
    const external = unexplained.map((v) => store.audit.externalFills(v.fromMs ?? 0, v.toMs));
    const externalFills = new Set(external.flat().map((f) => f.dealId)).size;
    const result: AuditResult = { atMs, outcome, fromMs, assets: verdicts.map(show), externalFills };
    store.tx(() => {
      if (at !== null) store.audit.setBaseline(at.atMs, baselineRows(nextBaseline(baseline, at, verdicts)));
      unexplained.forEach((v, i) => store.alerts.add(BOOKS_UNEXPLAINED, v.asset, alertDetail(v, external[i]?.length ?? 0), atMs));
      store.audit.record(atMs, outcome, fromMs, result);
    });
    if (outcome !== 'unsettled') this.last = result;
    for (const v of unexplained) logger.error(show(v), `ALERT: the books do not explain the ${v.asset} balance change`);
    if (outcome === 'unsettled') logger.warn({ attempts: this.deps.settleAttempts }, 'balance audit: the books never held still around a balance read; the window carries over');
    else logger.info({ outcome, assets: verdicts.length }, 'balance audit done');
    return result;
  }
}

function baselineRows(b: Baseline): AuditBaselineRow[] {
  return Object.entries(b.assets).map(([asset, p]) => ({ asset, balance: p?.balance ?? null, books: p?.books ?? null, atMs: p?.atMs ?? null }));
}

/** The alert's text: asset, the three amounts, the window, and where to look. */
export function alertDetail(v: AssetVerdict, externalFills: number): string {
  const ext = externalFills > 0 ? `; ${externalFills} fill(s) of orders this bot did not place in the window` : '';
  return (
    `${v.asset}: main balance changed by ${signed(v.actual)}, the books explain ${signed(v.expected)}, ` +
    `difference ${signed(v.difference)} (allowed ${v.allowed.toFixed()}) from ${iso(v.fromMs)} to ${iso(v.toMs)}${ext}; ` +
    `typical causes: ${TYPICAL_CAUSES}`
  );
}

/** The assets a result found unexplained (for health and status). */
export function unexplainedOf(r: AuditResult | null): AssetAudit[] {
  return r === null ? [] : r.assets.filter((a) => a.verdict === 'unexplained');
}

/**
 * Closing a flex investment goes through the same journal as orders: the intent is stored
 * PENDING (with a clientOrderId-style id) before the request; an ambiguous reply leaves it
 * UNKNOWN until the flex history shows (or, after a grace period, does not show) the close.
 */
import type { Clock } from '../core/clock.js';
import { errorCode, errorMessage } from '../core/errors.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { FlexRecord } from '../model/flex.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { OrderJournal } from './order-journal.js';
import { classifyPlacementError } from './order-outcomes.js';
import { clientIdPrefixFor } from './prefix.js';
import type { ResolveOutcome } from './resolver.js';

/** Which flex plan to close (the venue closes the investment of that plan). */
export interface FlexClosePlan {
  /** Plan id (UUID). */
  plan: string;
}

export type FlexCloseOutcome =
  | { status: 'done'; id: string; transactionId: string }
  | { status: 'rejected' | 'not_sent'; id: string; code: string; message: string }
  | { status: 'unknown'; id: string; message: string };

export interface FlexCloserDeps {
  store: Store;
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  /** Ids come from the order sequence; closes in flight are tracked with the orders'. */
  journal: OrderJournal;
}

export class FlexCloser {
  constructor(
    private readonly deps: FlexCloserDeps,
    private readonly graceMs = 60_000,
  ) {}

  async close(strategyId: string, plan: FlexClosePlan): Promise<FlexCloseOutcome> {
    const id = this.deps.store.tx(() => {
      const [cid] = this.deps.journal.reserveIds(clientIdPrefixFor(strategyId), 1) as [string];
      this.deps.store.flex.insertIntent(cid, strategyId, plan.plan, this.deps.clock.now());
      return cid;
    });
    this.deps.journal.begin([id]);
    try {
      const r = await this.deps.gateway.closeFlex(plan.plan);
      this.deps.store.tx(() => this.deps.store.flex.setIntent(id, 'DONE', { transactionId: r.transactionId }, this.deps.clock.now()));
      return { status: 'done', id, transactionId: r.transactionId };
    } catch (err) {
      const c = classifyPlacementError(err);
      if (c.kind === 'unknown') {
        this.deps.store.tx(() => this.deps.store.flex.setIntent(id, 'UNKNOWN', { reason: c.code }, this.deps.clock.now()));
        return { status: 'unknown', id, message: errorMessage(err) };
      }
      const reason = c.kind === 'not_sent' ? `not_sent:${c.code}` : c.code;
      this.deps.store.tx(() => this.deps.store.flex.setIntent(id, 'REJECTED', { reason }, this.deps.clock.now()));
      return { status: c.kind, id, code: c.code, message: c.message };
    } finally {
      this.deps.journal.end([id]);
    }
  }

  /** The plan's CLOSE_INVESTMENT record since shortly before the close was journaled, if listed. */
  private async findClose(plan: string, createdMs: number): Promise<FlexRecord | undefined> {
    for await (const page of this.deps.gateway.flexRecords({ plan, actionTypes: ['CLOSE_INVESTMENT'], fromMs: createdMs - 60_000 })) {
      const rec = page.find((r) => r.actionType === 'CLOSE_INVESTMENT' && r.planId === plan);
      if (rec !== undefined) return rec;
    }
    return undefined;
  }

  /** Looks for the CLOSE_INVESTMENT of each unsettled close in the flex history. */
  async resolveUnknown(): Promise<ResolveOutcome[]> {
    const out: ResolveOutcome[] = [];
    for (const i of this.deps.store.flex.intents(['PENDING', 'UNKNOWN'])) {
      if (this.deps.journal.isInFlight(i.id)) continue;
      try {
        out.push(await this.settle(i));
      } catch (err) {
        this.deps.logger.warn({ id: i.id, code: errorCode(err) }, 'flex close resolution failed; will retry');
        out.push({ clientOrderId: i.id, verdict: 'pending', evidence: `error ${errorCode(err)}` });
      }
    }
    return out;
  }

  /** DONE when the history shows the close; LOST when it still does not after the grace period. */
  private async settle(i: { id: string; plan: string; createdMs: number }): Promise<ResolveOutcome> {
    const { store, clock } = this.deps;
    const rec = await this.findClose(i.plan, i.createdMs);
    const now = clock.now();
    if (rec !== undefined) {
      store.tx(() => store.flex.setIntent(i.id, 'DONE', { transactionId: rec.transactionId, reason: 'resolved from flex history' }, now));
      return { clientOrderId: i.id, verdict: 'DONE', evidence: 'flex history' };
    }
    if (now - i.createdMs >= this.graceMs) {
      store.tx(() => store.flex.setIntent(i.id, 'LOST', { reason: 'no close in flex history after grace' }, now));
      return { clientOrderId: i.id, verdict: 'LOST', evidence: 'flex history: none' };
    }
    return { clientOrderId: i.id, verdict: 'pending', evidence: 'flex history: none yet' };
  }
}

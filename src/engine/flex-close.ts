/**
 * Closing a flex investment goes through the same journal as orders: the intent is stored
 * PENDING (with a clientOrderId-style id) before the request; an ambiguous reply leaves it
 * UNKNOWN until the flex history shows (or, after a grace period, does not show) the close.
 */
import type { Clock } from '../core/clock.js';
import { errorCode, errorMessage } from '../core/errors.js';
import type { ExchangeGateway, FlexRecord } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
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

export class FlexCloser {
  private readonly inFlight = new Set<string>();
  constructor(
    private readonly store: Store,
    private readonly gateway: ExchangeGateway,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly reserveIds: (prefix: string, n: number) => string[],
    private readonly graceMs = 60_000,
  ) {}

  async close(strategyId: string, plan: FlexClosePlan): Promise<FlexCloseOutcome> {
    const id = this.store.tx(() => {
      const [cid] = this.reserveIds(clientIdPrefixFor(strategyId), 1) as [string];
      this.store.flex.insertIntent(cid, strategyId, plan.plan, this.clock.now());
      return cid;
    });
    this.inFlight.add(id);
    try {
      const r = await this.gateway.closeFlex(plan.plan);
      this.store.tx(() => this.store.flex.setIntent(id, 'DONE', { transactionId: r.transactionId }, this.clock.now()));
      return { status: 'done', id, transactionId: r.transactionId };
    } catch (err) {
      const c = classifyPlacementError(err);
      if (c.kind === 'unknown') {
        this.store.tx(() => this.store.flex.setIntent(id, 'UNKNOWN', { reason: c.code }, this.clock.now()));
        return { status: 'unknown', id, message: errorMessage(err) };
      }
      const reason = c.kind === 'not_sent' ? `not_sent:${c.code}` : c.code;
      this.store.tx(() => this.store.flex.setIntent(id, 'REJECTED', { reason }, this.clock.now()));
      return { status: c.kind, id, code: c.code, message: c.message };
    } finally {
      this.inFlight.delete(id);
    }
  }

  pendingCount(): number {
    return this.store.flex.intents(['PENDING', 'UNKNOWN']).filter((i) => !this.inFlight.has(i.id)).length;
  }

  /** The plan's CLOSE_INVESTMENT record since shortly before the close was journaled, if listed. */
  private async findClose(plan: string, createdMs: number): Promise<FlexRecord | undefined> {
    for await (const page of this.gateway.flexRecords({ plan, actionTypes: ['CLOSE_INVESTMENT'], fromMs: createdMs - 60_000 })) {
      const rec = page.find((r) => r.actionType === 'CLOSE_INVESTMENT' && r.planId === plan);
      if (rec !== undefined) return rec;
    }
    return undefined;
  }

  /** Looks for the CLOSE_INVESTMENT of each unsettled close in the flex history. */
  async resolveUnknown(): Promise<ResolveOutcome[]> {
    const out: ResolveOutcome[] = [];
    for (const i of this.store.flex.intents(['PENDING', 'UNKNOWN'])) {
      if (this.inFlight.has(i.id)) continue;
      try {
        const rec = await this.findClose(i.plan, i.createdMs);
        const now = this.clock.now();
        if (rec !== undefined) {
          this.store.tx(() => this.store.flex.setIntent(i.id, 'DONE', { transactionId: rec.transactionId, reason: 'resolved from flex history' }, now));
          out.push({ clientOrderId: i.id, verdict: 'DONE', evidence: 'flex history' });
        } else if (now - i.createdMs >= this.graceMs) {
          this.store.tx(() => this.store.flex.setIntent(i.id, 'LOST', { reason: 'no close in flex history after grace' }, now));
          out.push({ clientOrderId: i.id, verdict: 'LOST', evidence: 'flex history: none' });
        } else {
          out.push({ clientOrderId: i.id, verdict: 'pending', evidence: 'flex history: none yet' });
        }
      } catch (err) {
        this.logger.warn({ id: i.id, code: errorCode(err) }, 'flex close resolution failed; will retry');
        out.push({ clientOrderId: i.id, verdict: 'pending', evidence: `error ${errorCode(err)}` });
      }
    }
    return out;
  }
}

/**
 * Alerts reach the operator from the store, not from each place that raises one: every alert
 * the engine and daemon write (`store.alerts.add`: protective leg missing, lost order, overfill,
 * unattributed leg fill, orderId conflict, clock skew, absurd Date headers, request queue, paper
 * reset, a balance change the books do not explain) is committed first, and this poll sends the committed rows, so a rolled-back
 * transaction never notifies. Orders UNKNOWN for longer than `unknownAfterMs` are reported once
 * each (`unknown_unresolved`): the resolver is still trying, but a human should look.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import type { AlertEvent } from '../notify/index.js';
import type { Store } from '../store/index.js';

export interface AlertWatchOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  notify: (e: AlertEvent) => void;
  everyMs?: number;
  unknownAfterMs?: number;
}

export class AlertWatch {
  private lastId = 0;
  private timer: TimerHandle | null = null;
  private readonly reportedUnknown = new Set<string>();
  private readonly everyMs: number;
  private readonly unknownAfterMs: number;

  constructor(private readonly options: AlertWatchOptions) {
    this.everyMs = options.everyMs ?? 5_000;
    this.unknownAfterMs = options.unknownAfterMs ?? 10 * 60_000;
  }

  /** Alerts already stored are history: only those raised from now on are sent. */
  start(): void {
    this.lastId = this.options.store.alerts.maxId();
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      try {
        this.poll();
      } catch (err) {
        this.options.logger.warn({ err }, 'alert poll for notifications failed');
      }
      if (this.timer !== null) this.schedule();
    }, this.everyMs);
  }

  poll(): void {
    for (let batch = this.options.store.alerts.after(this.lastId); batch.length > 0; batch = this.options.store.alerts.after(this.lastId)) {
      for (const a of batch) {
        this.options.notify({ type: 'alert', atMs: a.atMs, kind: a.kind, subject: a.subject, detail: a.detail });
        this.lastId = a.id;
      }
    }
    this.unresolved();
  }

  private unresolved(): void {
    const now = this.options.clock.now();
    const unknown = this.options.store.orders.listByState(['UNKNOWN']);
    const still = new Set(unknown.map((o) => o.clientOrderId));
    for (const id of this.reportedUnknown) if (!still.has(id)) this.reportedUnknown.delete(id);
    for (const o of unknown) {
      const since = o.unknownSinceMs ?? o.updatedMs;
      if (now - since < this.unknownAfterMs || this.reportedUnknown.has(o.clientOrderId)) continue;
      this.reportedUnknown.add(o.clientOrderId);
      const minutes = Math.floor((now - since) / 60_000);
      this.options.notify({ type: 'alert', atMs: now, kind: 'unknown_unresolved', subject: o.clientOrderId, detail: `${o.strategyId} ${o.market}: outcome UNKNOWN for ${minutes} min; the resolver keeps looking` });
    }
  }

  stop(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * Notification delivery counters, on the daemon's registry (`BotMetrics.registry`): sent,
 * retried, and dropped by reason (`queue_full`, `failed` after the last attempt or a permanent
 * refusal, `shutdown` when the daemon stopped with notifications still queued).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export type NotifyDropReason = 'queue_full' | 'failed' | 'shutdown';

export class NotifyMetrics {
  private readonly sent: Counter;
  private readonly retries: Counter;
  private readonly dropped: Counter;
  private readonly queued: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.sent = new Counter({ name: 'bot_notifications_sent_total', help: 'Notifications delivered, by sink', labelNames: ['sink'], registers });
    this.retries = new Counter({ name: 'bot_notifications_retries_total', help: 'Notification delivery retries, by sink', labelNames: ['sink'], registers });
    this.dropped = new Counter({ name: 'bot_notifications_dropped_total', help: 'Notifications lost, by sink and reason', labelNames: ['sink', 'reason'], registers });
    this.queued = new Gauge({ name: 'bot_notifications_queued', help: 'Notifications waiting for delivery, by sink', labelNames: ['sink'], registers });
  }

  delivered(sink: string): void {
    this.sent.inc({ sink });
  }

  retried(sink: string): void {
    this.retries.inc({ sink });
  }

  drop(sink: string, reason: NotifyDropReason, n = 1): void {
    if (n > 0) this.dropped.inc({ sink, reason }, n);
  }

  setQueued(sink: string, n: number): void {
    this.queued.set({ sink }, n);
  }
}

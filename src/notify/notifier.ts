/**
 * The notifier the daemon calls: filters events by the configured kinds (`NOTIFY_EVENTS`),
 * rate-limits refusals, and hands each event to every sink's channel. Calls return at once and
 * never throw: from the engine's side a notification is fire-and-forget.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import type { NotifyMetrics } from '../observability/notify-metrics.js';
import type { Random } from './backoff.js';
import { Channel, type DeliveryPolicy } from './channel.js';
import { kindOf, type NotifyEvent, type NotifyKind } from './events.js';
import { RefusalLimiter } from './refusals.js';
import type { Sink } from './sink.js';

export interface NotifierOptions {
  clock: Clock;
  logger: Logger;
  metrics: NotifyMetrics;
  random: Random;
  /** Each sink with the kinds it is sent; the others are ignored. */
  sinks: readonly { sink: Sink; events: ReadonlySet<NotifyKind> }[];
  /** Refusal roll-up window per strategy and code, ms. */
  refusalWindowMs: number;
  policy?: Partial<DeliveryPolicy>;
}

export class Notifier {
  private readonly channels: { channel: Channel; events: ReadonlySet<NotifyKind> }[];
  private readonly refusals: RefusalLimiter;

  constructor(private readonly options: NotifierOptions) {
    const { clock, logger, metrics, random, policy } = options;
    const shared = { clock, logger, metrics, random, ...(policy === undefined ? {} : { policy }) };
    this.channels = options.sinks.map(({ sink, events }) => ({ channel: new Channel({ sink, ...shared }), events }));
    this.refusals = new RefusalLimiter(options.clock, options.refusalWindowMs, (e) => this.notify(e));
  }

  /** Names of the configured sinks with the kinds each is sent. */
  get sinks(): Record<string, NotifyKind[]> {
    return Object.fromEntries(this.channels.map(({ channel, events }) => [channel.name, [...events]]));
  }

  /** Whether any sink is sent this kind. */
  wants(kind: NotifyKind): boolean {
    return this.channels.some((c) => c.events.has(kind));
  }

  notify(e: NotifyEvent): void {
    const kind = kindOf(e);
    for (const { channel: c, events } of this.channels) {
      if (!events.has(kind)) continue;
      try {
        c.push(e);
      } catch (err) {
        this.options.logger.error({ err, sink: c.name }, 'notification not queued');
      }
    }
  }

  /** A risk-gate refusal: the first of its strategy and code at once, the rest rolled up. */
  refused(strategyId: string, code: string, detail: string): void {
    if (this.wants('refusals')) this.refusals.refused(strategyId, code, detail);
  }

  /** Flushes for up to `flushMs` of clock time, then stops; logs how many notifications were lost. */
  async close(flushMs: number): Promise<void> {
    this.refusals.stop();
    const lost = await Promise.all(this.channels.map(({ channel }) => channel.close(flushMs)));
    const total = lost.reduce((a, b) => a + b, 0);
    if (total > 0) this.options.logger.warn({ lost: total }, 'notifications still queued at stop are lost (the queue is in memory)');
  }
}

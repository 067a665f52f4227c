/** Notification test helpers: events, a recording logger, a scripted sink. */
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { dec } from '../../src/core/decimal.js';
import type { FillEvent, NotifyEvent, SendResult, Sink } from '../../src/notify/index.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import { NotifyMetrics } from '../../src/observability/notify-metrics.js';

export function fillEvent(over: Partial<FillEvent> = {}): FillEvent {
  return {
    type: 'fill',
    atMs: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
    strategyId: 'grid',
    market: 'BTC_USDT',
    side: 'buy',
    role: 'maker',
    price: dec('60000.123456789012345678'),
    amount: dec('0.00000001'),
    quote: dec('0.000600001234567890'),
    fee: dec('0.0000000012'),
    feeAsset: 'USDT',
    dealId: 9_007_199_254_740_991,
    clientOrderId: 'grid-abc-1',
    ...over,
  };
}

export const alertEvent = (n = 1): NotifyEvent => ({ type: 'alert', atMs: 1_700_000_000_000, kind: 'overfill', subject: `o-${n}`, detail: 'filled 2 > amount 1' });
export const refusalEvent = (n = 1): NotifyEvent => ({ type: 'refusal', atMs: 1_700_000_000_000, strategyId: 'grid', code: `C${n}`, detail: 'x', suppressed: 0, windowMs: 60_000 });

/** A logger writing JSON lines into `lines`. */
export function recordingLogger(level = 'trace'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}

export function notifyMetrics(): { metrics: NotifyMetrics; registry: Registry; value(name: string, labels: Record<string, string>): Promise<number> } {
  const registry = new Registry();
  const metrics = new NotifyMetrics(registry);
  return {
    metrics,
    registry,
    async value(name, labels) {
      const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
      const v = m?.values.find((x) => Object.entries(labels).every(([k, want]) => x.labels[k] === want));
      return v?.value ?? 0;
    },
  };
}

/** A sink answering from a script (then ok); `hang` never answers unless aborted. Records each attempt. */
export class ScriptedSink implements Sink {
  readonly name = 'scripted';
  readonly attempts: { event: NotifyEvent; atMs: number }[] = [];
  private readonly script: (SendResult | 'hang' | 'throw')[] = [];

  constructor(private readonly now: () => number) {}

  then(...r: (SendResult | 'hang' | 'throw')[]): this {
    this.script.push(...r);
    return this;
  }

  send(event: NotifyEvent, signal: AbortSignal): Promise<SendResult> {
    this.attempts.push({ event, atMs: this.now() });
    const next = this.script.shift() ?? { ok: true };
    if (next === 'throw') return Promise.reject(new TypeError('fetch failed: http://secret-host/bot123:SECRET/sendMessage'));
    if (next === 'hang') return new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
    return Promise.resolve(next);
  }
}

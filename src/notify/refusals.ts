/**
 * Risk-gate refusals repeat on every tick while their cause lasts; the operator needs to hear of
 * each cause once, not once a second. Per strategy and refusal code: the first refusal is
 * sent at once and opens a window; refusals inside it are counted; at its end, if any were
 * counted, one roll-up ("+k more") is sent and a new window opens. So at most one message per
 * strategy, code and window after the first.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import type { RefusalEvent } from './events.js';

interface Window {
  count: number;
  detail: string;
  timer: TimerHandle;
}

export class RefusalLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
    private readonly emit: (e: RefusalEvent) => void,
  ) {}

  refused(strategyId: string, code: string, detail: string): void {
    const key = `${strategyId}\u0000${code}`;
    const w = this.windows.get(key);
    if (w !== undefined) {
      w.count++;
      w.detail = detail;
      return;
    }
    this.emit(this.event(strategyId, code, detail, 0));
    this.open(key, strategyId, code, detail);
  }

  private open(key: string, strategyId: string, code: string, detail: string): void {
    const timer = this.clock.setTimeout(() => this.close(key, strategyId, code), this.windowMs);
    this.windows.set(key, { count: 0, detail, timer });
  }

  private close(key: string, strategyId: string, code: string): void {
    const w = this.windows.get(key);
    this.windows.delete(key);
    if (w === undefined || w.count === 0) return;
    this.emit(this.event(strategyId, code, w.detail, w.count));
    this.open(key, strategyId, code, w.detail);
  }

  private event(strategyId: string, code: string, detail: string, suppressed: number): RefusalEvent {
    return { type: 'refusal', atMs: this.clock.now(), strategyId, code, detail, suppressed, windowMs: this.windowMs };
  }

  /** Cancels the windows' timers (roll-ups still pending are not sent). */
  stop(): void {
    for (const w of this.windows.values()) this.clock.clearTimeout(w.timer);
    this.windows.clear();
  }
}

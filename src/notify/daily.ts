/**
 * The daily summary's timer: fires at a fixed UTC time of day (`HH:MM`) on the injected Clock,
 * then again 24 h of clock time later, and tells the callback which UTC day just ended (the
 * 24 hours before the firing time).
 */
import type { Clock, TimerHandle } from '../core/clock.js';

const DAY_MS = 86_400_000;

export const UTC_TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight UTC of `HH:MM`. */
export function minutesOfDay(hhmm: string): number {
  const m = UTC_TIME_RE.exec(hhmm);
  if (m === null) throw new RangeError(`not a UTC time HH:MM: ${JSON.stringify(hhmm)}`);
  return Number.parseInt(m[1] as string, 10) * 60 + Number.parseInt(m[2] as string, 10);
}

/** The first instant strictly after `nowMs` at `hhmm` UTC. */
export function nextAt(nowMs: number, hhmm: string): number {
  const midnight = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const at = midnight + minutesOfDay(hhmm) * 60_000;
  return at > nowMs ? at : at + DAY_MS;
}

/** `YYYY-MM-DD` of an instant, UTC. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export interface SummaryWindow {
  fromMs: number;
  toMs: number;
}

export class DailyTimer {
  private handle: TimerHandle | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly hhmm: string,
    private readonly fire: (window: SummaryWindow) => void,
  ) {}

  start(): void {
    const at = nextAt(this.clock.now(), this.hhmm);
    this.handle = this.clock.setTimeout(() => {
      this.fire({ fromMs: at - DAY_MS, toMs: at });
      this.start();
    }, at - this.clock.now());
  }

  stop(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }
}

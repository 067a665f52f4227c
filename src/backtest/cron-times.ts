/**
 * When a cron schedule fires on the virtual clock. node-cron decides *when* in the daemon
 * (src/engine/scheduler.ts); here the same library answers "next fire after t" through the time
 * matcher its tasks carry (node-cron 4.6.0 `TimeMatcher.getNextMatch`, the code its own
 * `getNextRun` uses), so the backtest fires exactly the daemon's schedule without a second cron
 * parser. Schedules are read in UTC so a run does not depend on the host's time zone.
 *
 * The matcher works through time-zone date parts on every call (~6 % of a run's CPU). A schedule
 * whose day fields (day of month, month, day of week) are all `*` fires the same way every UTC
 * day, so its answers are kept by time of day: the matcher is asked once per distinct time of day.
 */
import { createTask, type ScheduledTask } from 'node-cron';

interface TimeMatcher {
  getNextMatch(date: Date): Date;
}

const DAY_MS = 86_400_000;
/** Times of day kept per schedule at most (a run asks at its steps and fire times: far fewer). */
const DAILY_MAX = 200_000;

/** Whether the expression's day of month, month and day of week are all `*` (5 or 6 fields). */
function sameEveryDay(expression: string): boolean {
  const fields = expression.trim().split(/\s+/);
  return fields.length >= 5 && fields.slice(-3).every((f) => f === '*');
}

export class CronTimes {
  private readonly task: ScheduledTask;
  private readonly matcher: TimeMatcher;
  /** Time of day (ms) → the next fire's offset from that day's start; undefined when days differ. */
  private readonly daily: Map<number, number> | undefined;

  constructor(readonly expression: string) {
    this.task = createTask(expression, () => undefined, { timezone: 'UTC' });
    const matcher = (this.task as unknown as { timeMatcher?: Partial<TimeMatcher> }).timeMatcher;
    if (typeof matcher?.getNextMatch !== 'function') {
      throw new Error('node-cron: this version has no TimeMatcher.getNextMatch (the backtest needs node-cron 4.6.x)');
    }
    this.matcher = matcher as TimeMatcher;
    this.daily = sameEveryDay(expression) ? new Map() : undefined;
  }

  /** The first fire time strictly after `afterMs`. */
  next(afterMs: number): number {
    if (this.daily === undefined) return this.matcherNext(afterMs);
    const dayStart = afterMs - (((afterMs % DAY_MS) + DAY_MS) % DAY_MS);
    const ofDay = afterMs - dayStart;
    let offset = this.daily.get(ofDay);
    if (offset === undefined) {
      offset = this.matcherNext(afterMs) - dayStart;
      if (this.daily.size >= DAILY_MAX) this.daily.clear();
      this.daily.set(ofDay, offset);
    }
    return dayStart + offset;
  }

  /** node-cron's own answer. */
  matcherNext(afterMs: number): number {
    return this.matcher.getNextMatch(new Date(afterMs)).getTime();
  }

  /** Whether the schedule fires at `ms` (node-cron's public matcher, for tests). */
  matches(ms: number): boolean {
    return this.task.match(new Date(ms));
  }

  async dispose(): Promise<void> {
    await this.task.destroy();
  }
}

/**
 * When a cron schedule fires on the virtual clock. node-cron decides *when* in the daemon
 * (src/engine/scheduler.ts); here the same library answers "next fire after t" through the time
 * matcher its tasks carry (node-cron 4.6.0 `TimeMatcher.getNextMatch`, the code its own
 * `getNextRun` uses), so the backtest fires exactly the daemon's schedule without a second cron
 * parser. Schedules are read in UTC so a run does not depend on the host's time zone.
 *
 * The matcher works through time-zone date parts on every call (~100 µs; ~7 % of a run's CPU). A
 * schedule whose day fields (day of month, month, day of week) match every day fires at the same
 * times of every UTC day: the times of day node-cron's own parse of the expression allows (its
 * seconds × minutes × hours) are listed once, and `next()` searches that table.
 */
import { createTask, type ScheduledTask } from 'node-cron';

interface TimeMatcher {
  getNextMatch(date: Date): Date;
  /** node-cron's parse: allowed seconds, minutes, hours, days of month, months, days of week. */
  expressions?: unknown;
}

const DAY_MS = 86_400_000;

/** Whether `values` holds every integer of [from, to] (and nothing else: node-cron lists each value once). */
function covers(values: unknown, from: number, to: number): boolean {
  if (!Array.isArray(values)) return false;
  const set = new Set(values);
  for (let v = from; v <= to; v++) if (!set.has(v)) return false;
  return true;
}

function integers(values: unknown, max: number): number[] | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  return values.every((v) => Number.isInteger(v) && v >= 0 && v <= max) ? (values as number[]) : undefined;
}

/**
 * The fire times of one UTC day, ms from midnight, ascending; undefined when the schedule's days
 * differ (any day field other than every day) or node-cron's parse is not the expected shape.
 */
export function dailyOffsets(expressions: unknown): Int32Array | undefined {
  if (!Array.isArray(expressions) || expressions.length !== 6) return undefined;
  const [sec, min, hour, dom, month, dow] = expressions as unknown[];
  if (!covers(dom, 1, 31) || !covers(month, 1, 12) || !covers(dow, 0, 6)) return undefined;
  const s = integers(sec, 59);
  const m = integers(min, 59);
  const h = integers(hour, 23);
  if (s === undefined || m === undefined || h === undefined) return undefined;
  const out = new Set<number>();
  for (const hh of h) for (const mm of m) for (const ss of s) out.add(((hh * 60 + mm) * 60 + ss) * 1000);
  return Int32Array.from([...out].sort((a, b) => a - b));
}

/** Index of the first entry of `sorted` above `x` (sorted.length when none is). */
function firstAbove(sorted: Int32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class CronTimes {
  private readonly task: ScheduledTask;
  private readonly matcher: TimeMatcher;
  /** The day's fire times (ms from midnight UTC) when every day is the same; else node-cron answers. */
  private readonly daily: Int32Array | undefined;

  constructor(readonly expression: string) {
    this.task = createTask(expression, () => undefined, { timezone: 'UTC' });
    const matcher = (this.task as unknown as { timeMatcher?: Partial<TimeMatcher> }).timeMatcher;
    if (typeof matcher?.getNextMatch !== 'function') {
      throw new Error('node-cron: this version has no TimeMatcher.getNextMatch (the backtest needs node-cron 4.6.x)');
    }
    this.matcher = matcher as TimeMatcher;
    this.daily = dailyOffsets(this.matcher.expressions);
  }

  /** Whether next() answers from the day's table (the schedule fires the same every UTC day). */
  get sameEveryDay(): boolean {
    return this.daily !== undefined;
  }

  /** The first fire time strictly after `afterMs`. */
  next(afterMs: number): number {
    const daily = this.daily;
    if (daily === undefined) return this.matcherNext(afterMs);
    // As node-cron: the first fire after the whole second of `afterMs`.
    const baseMs = Math.floor(afterMs / 1000) * 1000;
    const dayStart = baseMs - (((baseMs % DAY_MS) + DAY_MS) % DAY_MS);
    const i = firstAbove(daily, baseMs - dayStart);
    return i < daily.length ? dayStart + (daily[i] as number) : dayStart + DAY_MS + (daily[0] as number);
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

/**
 * When a cron schedule fires on the virtual clock. node-cron decides *when* in the daemon
 * (src/engine/scheduler.ts); here the same library answers "next fire after t" through the time
 * matcher its tasks carry (node-cron 4.6.0 `TimeMatcher.getNextMatch`, the code its own
 * `getNextRun` uses), so the backtest fires exactly the daemon's schedule without a second cron
 * parser. Schedules are read in UTC so a run does not depend on the host's time zone.
 */
import { createTask, type ScheduledTask } from 'node-cron';

interface TimeMatcher {
  getNextMatch(date: Date): Date;
}

export class CronTimes {
  private readonly task: ScheduledTask;
  private readonly matcher: TimeMatcher;

  constructor(readonly expression: string) {
    this.task = createTask(expression, () => undefined, { timezone: 'UTC' });
    const matcher = (this.task as unknown as { timeMatcher?: Partial<TimeMatcher> }).timeMatcher;
    if (typeof matcher?.getNextMatch !== 'function') {
      throw new Error('node-cron: this version has no TimeMatcher.getNextMatch (the backtest needs node-cron 4.6.x)');
    }
    this.matcher = matcher as TimeMatcher;
  }

  /** The first fire time strictly after `afterMs`. */
  next(afterMs: number): number {
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

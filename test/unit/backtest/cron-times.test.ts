/**
 * The day table of a schedule that fires the same every UTC day answers exactly as node-cron's
 * matcher, for generated expressions and instants (day boundaries, whole seconds and the
 * milliseconds beside them); other schedules are node-cron's answers themselves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CronTimes, dailyOffsets } from '../../../src/backtest/cron-times.js';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

/** One cron field over [0, max]: `*`, a step, a value, a range, a list or a stepped range. */
function field(max: number): fc.Arbitrary<string> {
  const v = fc.integer({ min: 0, max });
  return fc.oneof(
    fc.constant('*'),
    fc.integer({ min: 1, max: max + 1 }).map((n) => `*/${n}`),
    v.map(String),
    fc.tuple(v, v).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.uniqueArray(v, { minLength: 1, maxLength: 4 }).map((xs) => xs.join(',')),
    fc.tuple(v, v, fc.integer({ min: 1, max: 7 })).map(([a, b, n]) => `${Math.min(a, b)}-${Math.max(a, b)}/${n}`),
  );
}

const everyDay = fc.tuple(field(59), field(59), field(23)).map(([s, m, h]) => `${s} ${m} ${h} * * *`);
const fiveFields = fc.tuple(field(59), field(23)).map(([m, h]) => `${m} ${h} * * *`);
const otherDays = fc
  .tuple(field(59), field(23), fc.constantFrom('*', '1', '1-15', '*/2', '28'), fc.constantFrom('*', '2', '1-6'), fc.constantFrom('*', '1', '0,6', '1-5'))
  .filter(([, , dom, month, dow]) => dom !== '*' || month !== '*' || dow !== '*')
  .map(([m, h, dom, month, dow]) => `0 ${m} ${h} ${dom} ${month} ${dow}`);

/** Instants over three years, pulled to the places an off-by-one would show: day ends, whole seconds. */
const instant = fc.oneof(
  fc.integer({ min: 0, max: 3 * 365 * DAY_MS }).map((d) => T0 + d),
  fc.tuple(fc.integer({ min: 0, max: 3 * 365 }), fc.integer({ min: -2000, max: 2000 })).map(([d, o]) => T0 + d * DAY_MS + o),
  fc.tuple(fc.integer({ min: 0, max: 3 * 365 * 86_400 }), fc.constantFrom(-1, 0, 1, 999)).map(([s, o]) => T0 + s * 1000 + o),
);

async function agrees(expr: string, times: number[], table: boolean): Promise<void> {
  const cron = new CronTimes(expr);
  try {
    expect(cron.sameEveryDay).toBe(table);
    for (const t of times) expect(cron.next(t), `${expr} after ${new Date(t).toISOString()}`).toBe(cron.matcherNext(t));
  } finally {
    await cron.dispose();
  }
}

describe('CronTimes day table', () => {
  it('answers as node-cron for six-field schedules that fire every day', async () => {
    await fc.assert(fc.asyncProperty(everyDay, fc.array(instant, { minLength: 1, maxLength: 25 }), (e, ts) => agrees(e, ts, true)), { numRuns: 150 });
  });

  it('answers as node-cron for five-field schedules (seconds 0) that fire every day', async () => {
    await fc.assert(fc.asyncProperty(fiveFields, fc.array(instant, { minLength: 1, maxLength: 25 }), (e, ts) => agrees(e, ts, true)), { numRuns: 100 });
  });

  it('leaves schedules whose days differ to node-cron', async () => {
    await fc.assert(fc.asyncProperty(otherDays, fc.array(instant, { minLength: 1, maxLength: 5 }), (e, ts) => agrees(e, ts, false)), { numRuns: 40 });
  });

  it('walks a day of the daemon schedules fire by fire, over the midnight into the next day', async () => {
    for (const expr of ['*/10 * * * * *', '*/15 * * * * *', '0 * * * * *', '0 */10 * * * *', '30 5 3 * * *', '*/5 * * * *']) {
      const cron = new CronTimes(expr);
      let t = T0 + 7 * DAY_MS - 1;
      for (let i = 0; i < 400; i++) {
        const want = cron.matcherNext(t);
        expect(cron.next(t)).toBe(want);
        t = want;
      }
      await cron.dispose();
    }
  });

  it('lists the fire times of one day from node-cron\'s parse, and none for a parse of another shape', () => {
    const all = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const days = [all(1, 31), all(1, 12), all(0, 6)];
    expect([...(dailyOffsets([[0, 30], [0], [0, 12], ...days]) ?? [])]).toEqual([0, 30_000, 43_200_000, 43_230_000]);
    expect(dailyOffsets([[0], [0], [0], [1], all(1, 12), all(0, 6)])).toBeUndefined();
    expect(dailyOffsets([[0], [0], ['L'], ...days])).toBeUndefined();
    expect(dailyOffsets(undefined)).toBeUndefined();
  });
});

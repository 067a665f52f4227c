/**
 * Checks what a module declares about candles (docs/strategies.md § Candles): its `history`
 * (the windows it reads, from its params) and a `candle:<timeframe>` schedule. The loader turns a
 * problem into a `ConfigError` naming the key.
 */
import { TIMEFRAMES, isTimeframe, type Timeframe } from '../model/candles.js';
import type { HistoryRequest, JsonValue } from './types.js';

/** The most closed candles one window may hold (200 daily candles are over half a year). */
export const MAX_HISTORY_COUNT = 5000;

const CANDLE_PREFIX = 'candle:';

/** The timeframe of a `candle:<timeframe>` schedule; null for any other schedule (a cron expression). */
export function candleTimeframe(schedule: string): Timeframe | null {
  if (!schedule.startsWith(CANDLE_PREFIX)) return null;
  const tf = schedule.slice(CANDLE_PREFIX.length);
  return isTimeframe(tf) ? tf : null;
}

/** Whether a schedule means to be a candle schedule (right or wrong). */
export function isCandleSchedule(schedule: string): boolean {
  return schedule.startsWith(CANDLE_PREFIX);
}

export const CANDLE_SCHEDULES = TIMEFRAMES.map((t) => `${CANDLE_PREFIX}${t}`);

function entryProblem(e: JsonValue, i: number, knownMarkets: ReadonlySet<string>): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return `[${i}]: expected { market, timeframe, count }, found ${JSON.stringify(e)}`;
  const { market, timeframe, count } = e as Record<string, JsonValue>;
  if (typeof market !== 'string' || !knownMarkets.has(market)) return `[${i}].market: expected a configured market, found ${JSON.stringify(market)}`;
  if (!isTimeframe(timeframe)) return `[${i}].timeframe: expected one of ${TIMEFRAMES.join(', ')}, found ${JSON.stringify(timeframe)}`;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_HISTORY_COUNT) {
    return `[${i}].count: expected an integer from 1 to ${MAX_HISTORY_COUNT}, found ${JSON.stringify(count)}`;
  }
  return null;
}

/** The declared windows, or the first problem (one window per market and timeframe: the largest count wins). */
export type HistoryCheck = { ok: true; history: HistoryRequest[] } | { ok: false; problem: string };

export function checkHistory(value: JsonValue | undefined, knownMarkets: ReadonlySet<string>): HistoryCheck {
  if (value === undefined || value === null) return { ok: true, history: [] };
  if (!Array.isArray(value)) return { ok: false, problem: `expected an array of { market, timeframe, count }, found ${JSON.stringify(value).slice(0, 60)}` };
  const out = new Map<string, HistoryRequest>();
  for (const [i, e] of (value as readonly JsonValue[]).entries()) {
    const problem = entryProblem(e, i, knownMarkets);
    if (problem !== null) return { ok: false, problem };
    const r = e as unknown as HistoryRequest;
    const key = `${r.market}|${r.timeframe}`;
    const had = out.get(key);
    out.set(key, { market: r.market, timeframe: r.timeframe, count: Math.max(r.count, had?.count ?? 0) });
  }
  return { ok: true, history: [...out.values()] };
}

/**
 * The strategies' candles (docs/strategies.md § Candles): the windows every instance declared
 * (`history`), kept in memory (candle-windows.ts) and fed by the daemon's price poll
 * (src/daemon/candle-feed.ts) or the backtest's input (src/backtest/candle-input.ts), the same
 * windows either way. A hook's snapshot carries its instance's declared windows only; a
 * `candle:<timeframe>` schedule ticks an instance once per closed candle of its first declared
 * market. Warm-up: while a window holds fewer candles than declared, `warmUp()` says so.
 */
import type { Timeframe } from '../model/candles.js';
import type { MinuteRow } from '../store/candle-buckets.js';
import { candleTimeframe, type CandleWindowData, type HistoryRequest, type LoadedStrategy } from '../strategy-api/host.js';
import { CandleWindows, type ClosedCandle } from './candle-windows.js';

/** A declared window that holds fewer closed candles than asked for. */
export interface WarmUpGap {
  strategyId: string;
  market: string;
  timeframe: Timeframe;
  want: number;
  have: number;
}

interface Instance {
  id: string;
  history: HistoryRequest[];
  /** The candle its `onTick` follows, for a `candle:<timeframe>` schedule. */
  ticksOn: { market: string; timeframe: Timeframe } | null;
}

export class StrategyCandles {
  readonly windows = new CandleWindows();
  private readonly instances = new Map<string, Instance>();

  /**
   * @param openMinute the minute a market is building (the store's open minute): the newest part
   * of `ctx.openCandle`.
   */
  constructor(private readonly openMinute: (market: string) => MinuteRow | undefined) {}

  /** Declares every instance's windows (and the candle its schedule follows). */
  register(strategies: readonly Pick<LoadedStrategy, 'id' | 'history' | 'schedule'>[]): void {
    for (const s of strategies) {
      const history = s.history ?? [];
      const tf = candleTimeframe(s.schedule);
      const market = history[0]?.market;
      const ticksOn = tf === null || market === undefined ? null : { market, timeframe: tf };
      this.instances.set(s.id, { id: s.id, history, ticksOn });
      for (const h of history) this.windows.declare(h);
      // The schedule's own window need not be declared: one candle is enough to see it close.
      if (ticksOn !== null) this.windows.declare({ ...ticksOn, count: 1 });
    }
  }

  /** Whether any instance declared a window (nothing to feed otherwise). */
  get active(): boolean {
    return this.windows.markets().length > 0;
  }

  /** Whether the instance's `onTick` follows candles rather than a cron expression. */
  candleScheduled(strategyId: string): boolean {
    return this.instances.get(strategyId)?.ticksOn != null;
  }

  /** The instances whose candle schedule one of `closed` completes, in registration order. */
  due(closed: readonly ClosedCandle[]): string[] {
    const hit = new Set(closed.map((c) => `${c.market}|${c.timeframe}`));
    return [...this.instances.values()].filter((i) => i.ticksOn !== null && hit.has(`${i.ticksOn.market}|${i.ticksOn.timeframe}`)).map((i) => i.id);
  }

  /** The declared windows of one instance at `nowMs`, as its snapshot carries them. */
  snapshot(strategyId: string, nowMs: number): CandleWindowData[] {
    const inst = this.instances.get(strategyId);
    if (inst === undefined) return [];
    return inst.history.map((h) => ({
      market: h.market,
      timeframe: h.timeframe,
      want: h.count,
      closed: this.windows.closed(h.market, h.timeframe, h.count),
      open: this.windows.open(h.market, h.timeframe, nowMs, this.openMinute(h.market)),
    }));
  }

  /** Every declared window still short of its count. */
  warmUp(): WarmUpGap[] {
    const out: WarmUpGap[] = [];
    for (const inst of this.instances.values()) {
      for (const h of inst.history) {
        const have = Math.min(h.count, this.windows.size(h.market, h.timeframe));
        if (have < h.count) out.push({ strategyId: inst.id, market: h.market, timeframe: h.timeframe, want: h.count, have });
      }
    }
    return out;
  }
}

/**
 * The daemon's feed of the strategies' candle windows (docs/strategies.md § Candles): at start
 * the windows are loaded from the store (recorded and imported minutes, aggregated by the store),
 * then each price poll hands them the minutes that closed since, one at a time. Candles that
 * close tick the instances on a candle schedule. A window short of its declared count is logged,
 * kept in the store for `status` and shown to the strategy (`ctx.history`) until it fills.
 */
import type { Clock } from '../core/clock.js';
import { recordWarmUp } from '../engine/status-records.js';
import type { StrategyCandles, WarmUpGap } from '../engine/strategy-candles.js';
import type { Logger } from '../observability/logger.js';
import { bucketStart } from '../store/candle-buckets.js';
import type { Store } from '../store/index.js';

const show = (g: WarmUpGap): string => `${g.strategyId} ${g.market} ${g.timeframe} ${g.have}/${g.want}`;

export class LiveCandleFeed {
  /** Per market: minutes that began before this were fed. */
  private readonly fedUntil = new Map<string, number>();
  private lastGaps = '';

  constructor(
    private readonly store: Pick<Store, 'candles' | 'meta' | 'tx'>,
    private readonly candles: StrategyCandles,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Loads every window from the store as of now; returns the windows still short. */
  seed(): WarmUpGap[] {
    const { store, candles } = this;
    const nowMs = this.clock.now();
    // Minutes that ended while the daemon was down are closed as they stood, as the first poll would.
    store.tx(() => store.candles.closeEnded(nowMs));
    const minuteStart = bucketStart(nowMs, '1m');
    for (const spec of candles.windows.specs()) {
      const closed = store.candles.closed(spec.market, spec.timeframe, spec.count, nowMs);
      const partial = store.candles.minutes(spec.market, bucketStart(nowMs, spec.timeframe), minuteStart);
      candles.windows.seed(spec.market, spec.timeframe, closed, partial);
    }
    for (const market of candles.windows.markets()) this.fedUntil.set(market, minuteStart);
    const gaps = candles.warmUp();
    if (gaps.length > 0) {
      this.logger.warn({ windows: gaps }, `warm-up: fewer candles than declared (${gaps.map(show).join('; ')}); strategies see it in ctx.history until the windows fill`);
    } else if (candles.active) this.logger.info({ windows: candles.windows.specs().length }, 'candle windows loaded: every declared window is full');
    this.report(gaps);
    return gaps;
  }

  /** After a price poll: feeds the minutes closed since the last one; returns the instances a closed candle ticks. */
  update(): string[] {
    const { store, candles } = this;
    if (!candles.active) return [];
    const nowMs = this.clock.now();
    const end = bucketStart(nowMs, '1m');
    // Every minute that ended is closed before a bucket is: a bucket closed without its last
    // minute would stay without it (the recorder closes them too, but only when it records).
    store.tx(() => store.candles.closeEnded(nowMs));
    const closed = [];
    for (const market of candles.windows.markets()) {
      const from = this.fedUntil.get(market) ?? end;
      if (from < end) for (const m of store.candles.minutes(market, from, end)) closed.push(...candles.windows.add(market, m));
      this.fedUntil.set(market, end);
    }
    closed.push(...candles.windows.advance(nowMs));
    if (closed.length > 0 && this.lastGaps !== '[]') this.progress(candles.warmUp());
    return candles.due(closed);
  }

  private progress(gaps: WarmUpGap[]): void {
    if (gaps.length === 0) this.logger.info({}, 'warm-up complete: every declared candle window is full');
    this.report(gaps);
  }

  private report(gaps: WarmUpGap[]): void {
    const json = JSON.stringify(gaps);
    if (json === this.lastGaps) return;
    this.lastGaps = json;
    this.store.tx(() => recordWarmUp(this.store.meta, gaps));
  }
}

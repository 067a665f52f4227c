/** The run's time span and step, from the price files and the --from / --to flags. */
import { ConfigError } from '../core/errors.js';
import type { PriceSeries } from './load-prices.js';

export interface RunSpan {
  fromMs: number;
  toMs: number;
  /** The smallest interval between two rows of a market, at least one second. */
  stepMs: number;
}

export function runSpan(series: Iterable<Pick<PriceSeries, 'first' | 'lastMs' | 'minStepMs'>>, fromMs: number | undefined, toMs: number | undefined): RunSpan {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let stepMs = Number.POSITIVE_INFINITY;
  for (const s of series) {
    first = Math.min(first, s.first.timeMs);
    last = Math.max(last, s.lastMs);
    stepMs = Math.min(stepMs, s.minStepMs);
  }
  if (!Number.isFinite(stepMs)) throw new ConfigError('--prices: expected at least two rows per market, found one');
  const span = { fromMs: Math.max(first, fromMs ?? first), toMs: Math.min(last, toMs ?? last), stepMs: Math.max(1000, stepMs) };
  if (span.toMs <= span.fromMs) {
    const iso = (ms: number): string => new Date(ms).toISOString();
    throw new ConfigError(`--from/--to: expected a span inside the prices (${iso(first)} .. ${iso(last)}), found ${iso(span.fromMs)} .. ${iso(span.toMs)}`);
  }
  return span;
}

/**
 * The trading state the risk gate obeys: ACTIVE, REDUCE_ONLY or HALTED. Persisted in the store,
 * so a restart keeps REDUCE_ONLY / HALTED (a human, or the job that set it, must lift it).
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';

export type TradingState = 'ACTIVE' | 'REDUCE_ONLY' | 'HALTED';

export interface TradingStateChange {
  from: TradingState;
  to: TradingState;
  reason: string;
  atMs: number;
}

const KEY = 'tradingState';

export interface PersistedTradingState {
  state: TradingState;
  reason: string;
  atMs: number;
}
type Persisted = PersistedTradingState;

/** The persisted state as a reader sees it (`npm run status`); null when never set (ACTIVE). */
export function readTradingState(meta: Pick<Store['meta'], 'get'>): PersistedTradingState | null {
  const raw = meta.get(KEY);
  return raw === undefined ? null : (JSON.parse(raw) as Persisted);
}

export class TradingStateController {
  private current: Persisted;
  private readonly listeners = new Set<(c: TradingStateChange) => void>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    const raw = store.meta.get(KEY);
    this.current = raw === undefined ? { state: 'ACTIVE', reason: 'initial', atMs: clock.now() } : (JSON.parse(raw) as Persisted);
  }

  get(): TradingState {
    return this.current.state;
  }

  /** Why the current state was set (e.g. `credit: LTV 0.81 ≥ 0.8 × marginCallLtv`). */
  reason(): string {
    return this.current.reason;
  }

  /** Sets and persists the state; notifies listeners when it changed. Throws StoreError if it cannot persist. */
  set(state: TradingState, reason: string): void {
    const from = this.current.state;
    const next: Persisted = { state, reason, atMs: this.clock.now() };
    this.store.tx(() => this.store.meta.set(KEY, JSON.stringify(next)));
    this.current = next;
    if (from === state) return;
    this.logger.warn({ from, to: state, reason }, 'trading state changed');
    for (const l of this.listeners) l({ from, to: state, reason, atMs: next.atMs });
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (c: TradingStateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Strategies an operator paused: no ticks, and what their `onFill` returns is dropped (the hook
 * still runs, so the strategy's own state stays in step with its fills). Persisted in the store:
 * a paused strategy stays paused across restarts until someone resumes it. Resting orders are
 * not touched (`cancel-all` does that).
 */
import type { ConsoleRepository, PausedRecord } from '../store/index.js';

export interface TickCounts {
  /** Scheduled ticks that ran. */
  ran: number;
  /** Scheduled ticks held back because the strategy was paused. */
  held: number;
}

export class PauseRegistry {
  private readonly paused = new Map<string, PausedRecord>();
  private readonly ticks = new Map<string, TickCounts>();

  constructor(private readonly repo: Pick<ConsoleRepository, 'paused' | 'setPaused' | 'clearPaused'>) {
    for (const p of repo.paused()) this.paused.set(p.strategyId, p);
  }

  isPaused(strategyId: string): boolean {
    return this.paused.has(strategyId);
  }

  /** When and by whom the strategy was paused, or undefined. */
  record(strategyId: string): PausedRecord | undefined {
    return this.paused.get(strategyId);
  }

  /** Pauses (persisted first); false when it already was. */
  pause(strategyId: string, atMs: number, who: string): boolean {
    if (this.paused.has(strategyId)) return false;
    this.repo.setPaused(strategyId, atMs, who);
    this.paused.set(strategyId, { strategyId, atMs, who });
    return true;
  }

  /** Resumes (persisted first); false when it was not paused. */
  resume(strategyId: string): boolean {
    if (!this.paused.has(strategyId)) return false;
    this.repo.clearPaused(strategyId);
    this.paused.delete(strategyId);
    return true;
  }

  /** The scheduler's gate for a strategy's tick: counts it and says whether it may run. */
  admitTick(strategyId: string): boolean {
    const c = this.ticks.get(strategyId) ?? { ran: 0, held: 0 };
    const admit = !this.paused.has(strategyId);
    if (admit) c.ran++;
    else c.held++;
    this.ticks.set(strategyId, c);
    return admit;
  }

  tickCounts(strategyId: string): TickCounts {
    return { ...(this.ticks.get(strategyId) ?? { ran: 0, held: 0 }) };
  }

  /** Ids paused now (for the change detector). */
  ids(): string[] {
    return [...this.paused.keys()].sort();
  }
}

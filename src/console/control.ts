/**
 * The control actions (docs/dashboard.md › Control). Each goes through the path the daemon
 * already uses for the same effect:
 *
 * - `pause` / `resume`: the scheduler's tick gate (`PauseRegistry`, persisted);
 * - `halt` / `resume-trading`: the engine's trading state (`Engine.halt`, like an engine fault;
 *   `TradingStateController.set('ACTIVE')` with the drawdown peak reset, like `--resume-trading`);
 * - `cancel-all`: `OrderManager.cancelAll` of every strategy with live orders, queued on that
 *   strategy's scheduler lane so it never overlaps the strategy's own tick (the cancels leave
 *   through the request queue's cancel priority);
 * - `unquarantine`: `StrategyRunner.release` (the guard's error budget starts afresh).
 *
 * Every action, refused ones included, is logged at info and stored with who, from where and when.
 */
import type { Clock } from '../core/clock.js';
import { errorCode, errorMessage } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import type { OrderState } from '../core/orders.js';
import type { ConsoleRepository } from '../store/index.js';
import type { OrderRecord } from '../model/journal.js';
import type { PauseRegistry } from './pauses.js';

export const CONTROL_ACTIONS = ['pause', 'resume', 'halt', 'resume-trading', 'cancel-all', 'unquarantine'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

const NEEDS_STRATEGY: ReadonlySet<ControlAction> = new Set(['pause', 'resume', 'unquarantine']);

export function isControlAction(s: string): s is ControlAction {
  return (CONTROL_ACTIONS as readonly string[]).includes(s);
}

/** Who asked: the client's label and credential, and its address. */
export interface Requester {
  /** e.g. `cli/token`, `dashboard/session`. */
  who: string;
  remote: string | null;
}

/** An action's answer: HTTP status and a JSON body with `result` and a human `message`. */
export interface ControlOutcome {
  status: number;
  result: 'ok' | 'refused' | 'failed';
  message: string;
  data?: Record<string, unknown>;
}

/** The runner as control uses it (StrategyRunner implements it). */
export interface ControlledRunner {
  readonly quarantined: boolean;
  release(): { code: string } | null;
}

export interface ControlDeps {
  clock: Clock;
  logger: Logger;
  repo: Pick<ConsoleRepository, 'recordAction'>;
  pauses: PauseRegistry;
  runners: ReadonlyMap<string, ControlledRunner>;
  tradingState: { get(): string; set(state: 'ACTIVE', reason: string): void };
  /** `Engine.halt`. */
  halt(reason: string): void;
  /** Forgets the drawdown peak (`EquityWatch.resetPeak`), as `--resume-trading` does. */
  resetPeak(): void;
  /** Live orders (OPEN, PARTIALLY_FILLED) of every strategy. */
  cancellable(): OrderRecord[];
  /** Runs `OrderManager.cancelAll(strategyId)` on the strategy's lane (or directly when it has none). */
  cancelAll(strategyId: string): Promise<{ status: string }[]>;
  /** Metrics: a strategy's quarantine gauge. */
  setQuarantined(strategyId: string, on: boolean): void;
  /** Something the dashboard shows changed. */
  changed(): void;
}

/** States a cancel can act on (the order manager skips the others). */
export const CANCELLABLE: readonly OrderState[] = ['OPEN', 'PARTIALLY_FILLED'];

const ok = (message: string, data?: Record<string, unknown>): ControlOutcome => ({ status: 200, result: 'ok', message, ...(data === undefined ? {} : { data }) });
const refused = (status: number, message: string): ControlOutcome => ({ status, result: 'refused', message });

export class ControlService {
  constructor(private readonly deps: ControlDeps) {}

  /** Runs an action; never throws (a failure is an outcome, logged and stored like the rest). */
  async run(action: string, target: string | null, by: Requester): Promise<ControlOutcome> {
    let outcome: ControlOutcome;
    try {
      outcome = await this.dispatch(action, target, by);
    } catch (err) {
      outcome = { status: 500, result: 'failed', message: `${errorCode(err)}: ${errorMessage(err).slice(0, 200)}` };
    }
    this.record(action, target, by, outcome);
    return outcome;
  }

  private record(action: string, target: string | null, by: Requester, o: ControlOutcome): void {
    const { clock, logger, repo } = this.deps;
    const safeAction = isControlAction(action) ? action : 'unknown';
    logger.info({ action: safeAction, target, who: by.who, remote: by.remote, result: o.result, status: o.status, detail: o.message }, 'control action');
    try {
      repo.recordAction({ atMs: clock.now(), action: safeAction, target, who: by.who, remote: by.remote, result: o.result, detail: o.message.slice(0, 500) });
    } catch (err) {
      logger.error({ err }, 'could not store a control action');
    }
    this.deps.changed();
  }

  /** Why the action cannot run as asked, or null. */
  private invalid(action: string, target: string | null): ControlOutcome | null {
    if (!isControlAction(action)) return refused(404, `unknown action (expected one of ${CONTROL_ACTIONS.join(', ')})`);
    if (!NEEDS_STRATEGY.has(action)) return null;
    if (target === null) return refused(400, `${action} needs a strategy id`);
    if (!this.deps.runners.has(target)) return refused(404, `unknown strategy ${target} (configured: ${[...this.deps.runners.keys()].join(', ') || 'none'})`);
    return null;
  }

  private async dispatch(action: string, target: string | null, by: Requester): Promise<ControlOutcome> {
    const invalid = this.invalid(action, target);
    if (invalid !== null) return invalid;
    switch (action as ControlAction) {
      case 'pause':
        return this.pause(target as string, by);
      case 'resume':
        return this.deps.pauses.resume(target as string) ? ok(`strategy ${target} resumed`) : ok(`strategy ${target} was not paused`);
      case 'unquarantine':
        return this.unquarantine(target as string);
      case 'halt':
        return this.halt(by);
      case 'resume-trading':
        return this.resumeTrading(by);
      case 'cancel-all':
        return this.cancelAll();
    }
  }

  private pause(id: string, by: Requester): ControlOutcome {
    return this.deps.pauses.pause(id, this.deps.clock.now(), by.who) ? ok(`strategy ${id} paused`) : ok(`strategy ${id} was already paused`);
  }

  private unquarantine(id: string): ControlOutcome {
    const runner = this.deps.runners.get(id) as ControlledRunner;
    const was = runner.release();
    if (was === null) return refused(409, `strategy ${id} is not quarantined`);
    this.deps.setQuarantined(id, false);
    return ok(`strategy ${id} released from quarantine (was: ${was.code})`);
  }

  private halt(by: Requester): ControlOutcome {
    if (this.deps.tradingState.get() === 'HALTED') return ok('trading was already HALTED');
    this.deps.halt(`operator: halt (${by.who})`);
    return ok('trading HALTED: only cancels leave from now on');
  }

  private resumeTrading(by: Requester): ControlOutcome {
    const from = this.deps.tradingState.get();
    if (from === 'ACTIVE') return ok('trading was already ACTIVE');
    this.deps.tradingState.set('ACTIVE', `operator: resume-trading (${by.who})`);
    // A drawdown halt would re-trip at once against the old peak: the operator accepted the loss.
    this.deps.resetPeak();
    return ok(`trading ACTIVE (was ${from})`);
  }

  private async cancelAll(): Promise<ControlOutcome> {
    const ids = [...new Set(this.deps.cancellable().map((o) => o.strategyId))].sort();
    const counts: Record<string, number> = {};
    for (const id of ids) {
      for (const c of await this.deps.cancelAll(id)) counts[c.status] = (counts[c.status] ?? 0) + 1;
    }
    const left = this.deps.cancellable().length;
    const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ') || 'nothing to cancel';
    const message = left === 0 ? summary : `${summary}; ${left} still open (placed meanwhile or refused; halt first to stop new orders)`;
    return { status: 200, result: left === 0 ? 'ok' : 'failed', message, data: { counts, stillOpen: left } };
  }
}

/**
 * The run's heartbeat in shared memory. A hook running in the run's thread (`--strategies thread`)
 * cannot be stopped from inside that thread, so the backtest runs in a worker and its supervisor
 * (run-supervisor.ts) watches it from the process's main thread: the run writes these cells, the
 * supervisor reads them and judges (`StallJudge`) whether the run still moves.
 *
 * The cells: BEAT moves at each step of the run loop and at the start and end of each hook call;
 * ARMED is 1 while the run loop runs (start-up and the writing of the result files are not
 * judged: they have bounds of their own or call no strategy code); IN_HOOK is 1 during a hook
 * call, and INSTANCE and HOOK name the last call (kept after it ends: an async hook's
 * continuation runs after its call).
 */
import type { BotConfig } from '../config/index.js';
import type { HookWatch } from '../engine/sandbox-worker/sandbox-thread-executor.js';
import type { HookName } from '../engine/sandbox-worker/executor.js';

const BEAT = 0;
const ARMED = 1;
const IN_HOOK = 2;
const INSTANCE = 3;
const HOOK = 4;
const CELLS = 5;

const HOOKS: readonly HookName[] = ['init', 'onTick', 'onFill', 'onOrder', 'onStop'];

/** The instances a watch names, by index: the config's list, read the same way by the run and its supervisor. */
export function watchedInstances(config: BotConfig): string[] {
  return config.strategies.map((s) => s.id);
}

/** The shared memory a watch and its reader use. */
export function runWatchBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT);
}

/** The run's side: what the run loop and the in-thread executors tell (the instances as the config lists them). */
export class RunWatch implements HookWatch {
  private readonly cells: Int32Array;
  private readonly index: Map<string, number>;

  constructor(buffer: SharedArrayBuffer, instanceIds: readonly string[]) {
    this.cells = new Int32Array(buffer);
    this.index = new Map(instanceIds.map((id, i) => [id, i]));
  }

  /** The run loop starts: from now on a stalled run is judged. */
  arm(): void {
    Atomics.store(this.cells, ARMED, 1);
    this.step();
  }

  /** The run loop ended: what follows (the result files) runs no strategy code and is not judged. */
  disarm(): void {
    Atomics.store(this.cells, ARMED, 0);
  }

  /** One step of the run loop. */
  step(): void {
    Atomics.add(this.cells, BEAT, 1);
  }

  enter(instanceId: string, hook: HookName): void {
    Atomics.store(this.cells, INSTANCE, this.index.get(instanceId) ?? -1);
    Atomics.store(this.cells, HOOK, HOOKS.indexOf(hook));
    Atomics.store(this.cells, IN_HOOK, 1);
    this.step();
  }

  leave(): void {
    Atomics.store(this.cells, IN_HOOK, 0);
    this.step();
  }
}

/** What the supervisor reads at one look. */
export interface WatchReading {
  beat: number;
  armed: boolean;
  inHook: boolean;
  /** The last hook call's instance and hook (undefined before the first). */
  instanceId: string | undefined;
  hook: HookName | undefined;
}

/** The supervisor's side: reads the cells the run writes. */
export function readWatch(buffer: SharedArrayBuffer, instanceIds: readonly string[]): WatchReading {
  const cells = new Int32Array(buffer);
  const instance = Atomics.load(cells, INSTANCE);
  return {
    beat: Atomics.load(cells, BEAT),
    armed: Atomics.load(cells, ARMED) === 1,
    inHook: Atomics.load(cells, IN_HOOK) === 1,
    instanceId: instanceIds[instance],
    hook: HOOKS[Atomics.load(cells, HOOK)],
  };
}

/** A run that stopped moving: in a hook call past its deadline, or outside any call for `ms`. */
export type Stall =
  | { kind: 'hook'; instanceId: string | undefined; hook: HookName | undefined; ms: number }
  | { kind: 'run'; lastInstanceId: string | undefined; lastHook: HookName | undefined; ms: number };

/**
 * Judges successive readings: the run stalls when its beat has not moved for the hook deadline
 * during a hook call, or for `runStallMs` outside one while the run loop runs (a step's engine work
 * takes milliseconds; what runs there for that long is an async hook's continuation, or a fault).
 */
export class StallJudge {
  private last: { beat: number; sinceMs: number } | undefined;

  constructor(
    private readonly hookDeadlineMs: number,
    private readonly runStallMs: number,
  ) {}

  look(r: WatchReading, nowMs: number): Stall | undefined {
    if (!r.armed && !r.inHook) {
      this.last = undefined;
      return undefined;
    }
    if (this.last === undefined || this.last.beat !== r.beat) {
      this.last = { beat: r.beat, sinceMs: nowMs };
      return undefined;
    }
    const ms = nowMs - this.last.sinceMs;
    if (r.inHook) return ms >= this.hookDeadlineMs ? { kind: 'hook', instanceId: r.instanceId, hook: r.hook, ms } : undefined;
    return ms >= this.runStallMs ? { kind: 'run', lastInstanceId: r.instanceId, lastHook: r.hook, ms } : undefined;
  }
}

/**
 * Folds repeated identical warnings: the first is logged, the repeats within `windowMs` are
 * counted, and at the end of the window one line says how many there were (`repeated: N`). A
 * venue outage otherwise writes the same warning on every poll and buries everything else.
 * Identical means the same logger bindings (e.g. the strategy), message and fields; an error's
 * type, code and message stand in for the error. Implemented as pino's `hooks.logMethod`, so every
 * call site and child logger is covered without a wrapper.
 */
import type { Clock } from '../core/clock.js';
import type { LogFn, Logger } from 'pino';

export interface FoldSettings {
  clock: Clock;
  /** Window after the first of a kind in which repeats are only counted. */
  windowMs: number;
  /** Levels folded (pino numbers); default warn (40). */
  levels?: readonly number[];
}

export const DEFAULT_FOLD_WINDOW_MS = 60_000;

function keyValue(v: unknown): unknown {
  if (v instanceof Error) return { type: v.name, code: (v as Error & { code?: unknown }).code, message: v.message };
  return v;
}

/** A stable key for one call: bindings, message, fields (sorted), interpolation values. */
function foldKey(logger: Logger, level: number, args: unknown[]): string {
  const [first, ...rest] = args;
  const fields = typeof first === 'object' && first !== null ? (first instanceof Error ? { err: first } : (first as Record<string, unknown>)) : { msg: first };
  const sorted = Object.keys(fields)
    .sort()
    .map((k) => [k, keyValue(fields[k])]);
  return JSON.stringify([level, logger.bindings(), sorted, rest]);
}

interface Pending {
  count: number;
  args: unknown[];
}

type LogMethodHook = (this: Logger, args: Parameters<LogFn>, method: LogFn, level: number) => void;

/** The `hooks.logMethod` that folds; state is shared by the logger and all its children. */
export function warningFolder(settings: FoldSettings): LogMethodHook {
  const levels = new Set(settings.levels ?? [40]);
  const open = new Map<string, Pending>();
  return function logMethod(this: Logger, args, method, level) {
    if (!levels.has(level)) return void method.apply(this, args);
    const key = foldKey(this, level, args as unknown[]);
    const pending = open.get(key);
    if (pending !== undefined) {
      pending.count += 1;
      return;
    }
    open.set(key, { count: 0, args: [...(args as unknown[])] });
    method.apply(this, args);
    settings.clock.setTimeout(() => {
      const done = open.get(key);
      open.delete(key);
      if (done === undefined || done.count === 0) return;
      const [first, second] = done.args;
      const fields = typeof first === 'object' && first !== null ? (first instanceof Error ? { err: first } : first) : {};
      const msg = typeof first === 'string' ? first : typeof second === 'string' ? second : '';
      method.apply(this, [{ ...fields, repeated: done.count, windowMs: settings.windowMs }, `${msg} (repeated ${done.count} times)`] as unknown as Parameters<LogFn>);
    }, settings.windowMs);
  };
}

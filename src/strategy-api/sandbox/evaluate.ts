/**
 * Inside a strategy worker: Hardened JavaScript (`ses`). `lockdown()` freezes the shared
 * intrinsics (no prototype of Array, Object, Function… can be changed) and tames
 * `Function.prototype.constructor` (the `(() => 0).constructor('return process')` trick throws).
 * The module is then evaluated in a `Compartment` whose global object holds only the language
 * (JSON, Math without `random`, Map, Promise…); the author API comes in as `__api`.
 *
 * Removed on top of that (endowments shadow the compartment's defaults): code from strings
 * (`eval`, `Function`), new compartments, and every way to allocate memory outside the worker's
 * heap bound (ArrayBuffer, typed arrays, TextEncoder, WebAssembly, Atomics): `resourceLimits`
 * bound the V8 heap only.
 *
 * Host code in this worker also loses `Function` and `eval` once locked down, so nothing the
 * strategy can call (zod's code generation, `z.core.Doc`) turns a string into code with the
 * worker's globals in scope.
 */
import 'ses';
import * as tradingSignals from 'trading-signals';
import { z } from 'zod';
import * as authorApi from '../index.js';
import { CandleRequestError } from '../candles.js';
import { Decimal } from '../../core/decimal.js';
import { freezeDecimal } from './freeze-decimal.js';

const REMOVED = [
  'eval',
  'Function',
  'Compartment',
  'lockdown',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'TextEncoder',
  'TextDecoder',
  'Atomics',
  'WebAssembly',
] as const;

/** Author API exports frozen otherwise (Decimal), made per module (ZERO) or not frozen (zod): see `lockdownOnce`. */
const NOT_HARDENED: ReadonlySet<string> = new Set(['Decimal', 'ZERO', 'z']);

let locked = false;

/** Freezes the intrinsics once per worker; the worker's own code then runs without `eval`/`Function`. */
function lockdownOnce(): void {
  if (locked) return;
  // zod compiles parsers with `new Function` unless told not to; strategies' schemas run here.
  z.config({ jitless: true });
  // errorTaming 'unsafe' keeps `err.stack`, which names the strategy's file and line. No trapping:
  // an error or rejection nobody handles ends the worker, and the host quarantines the instance.
  lockdown({
    errorTaming: 'unsafe',
    consoleTaming: 'unsafe',
    overrideTaming: 'severe',
    stackFiltering: 'verbose',
    domainTaming: 'unsafe',
    errorTrapping: 'none',
    unhandledRejectionTrapping: 'none',
  });
  const g = globalThis as Record<string, unknown>;
  g['eval'] = undefined;
  g['Function'] = undefined;
  // What the author API hands out is shared with the host's own code in this thread (the engine's
  // Decimal and ZERO, the helpers, the indicators' library): frozen through and through, so no
  // strategy can change what another strategy or the engine computes with. In the backtest's
  // thread the engine itself runs on these objects (docs/sandbox.md § What a strategy can reach);
  // in a worker they are its own copies, hardened the same way so that a module behaves alike in
  // both (`Decimal.set` is refused in both). Decimal is frozen its own way (freeze-decimal.ts);
  // each module gets a ZERO of its own (`endowedApi`), as every decimal it is handed is its own.
  // zod cannot be: it adds properties to its objects as they are first used; the engine never
  // takes zod's word for an intent (intents.ts `parseIntents`).
  for (const value of Object.values(tradingSignals)) harden(value);
  freezeDecimal();
  for (const [name, value] of Object.entries(authorApi)) if (!NOT_HARDENED.has(name)) harden(value);
  harden(CandleRequestError);
  locked = true;
}

/** The author API as the strategy sees it: a frozen copy of `src/strategy-api/index.ts`'s exports. */
function endowedApi(): object {
  // The engine's ZERO stays the engine's: a decimal's digits can be changed by whoever holds it.
  return Object.freeze({ ...authorApi, ZERO: new Decimal(0) });
}

/**
 * Evaluates a program made by `compileStrategy` (transform.ts) in a fresh compartment and returns
 * its default export. `fileUrl` names the module in stack frames.
 */
export function evaluateStrategy(program: string, fileUrl: string): unknown {
  lockdownOnce();
  const globals: Record<string, unknown> = Object.fromEntries(REMOVED.map((name) => [name, undefined]));
  const compartment = new Compartment(globals);
  const factory = compartment.evaluate(`${program}\n//# sourceURL=${fileUrl}\n`) as (api: object, exports: { default?: unknown }) => void;
  const exports: { default?: unknown } = {};
  factory(endowedApi(), exports);
  return exports.default;
}

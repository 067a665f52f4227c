/**
 * The load probe: a worker that evaluates a strategy module in the sandbox, validates one
 * instance's params with the module's schema and reports data only (name, schedule, params as
 * JSON, which hooks exist, or the first param problem). The daemon never runs the module itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Decimal } from '../../core/decimal.js';
import type { JsonValue } from '../types.js';
import { locatedMessage } from '../locate.js';
import { NotADefinition, loadDefinition, parseParams, type SandboxInit } from './instance.js';
import type { LoadReport, ParamIssue } from './report.js';

const init = workerData as SandboxInit;

/** Plain JSON: Decimals as decimal strings, anything else as JSON has it. */
function json(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    return Decimal.isDecimal(raw) ? (raw as Decimal).toFixed() : v;
  });
  return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
}

function issueOf(issues: readonly { path: PropertyKey[]; code: string; message: string; input?: unknown; keys?: string[] }[]): ParamIssue | null {
  const i = issues[0];
  if (i === undefined) return null;
  const path = i.path.map((p) => (typeof p === 'number' ? p : String(p)));
  return { path, code: i.code, message: i.message, input: json(i.input), ...(i.keys?.[0] === undefined ? {} : { key: i.keys[0] }) };
}

function report(): LoadReport {
  let definition;
  try {
    definition = loadDefinition(init);
  } catch (err) {
    if (err instanceof NotADefinition) return { type: 'not-definition', message: err.message };
    return { type: 'threw', message: locatedMessage(err, init.file).slice(0, 400) };
  }
  const parsed = parseParams(definition, init);
  if (!parsed.success) return { type: 'params', issue: issueOf(parsed.error.issues as never) };
  const has = (hook: 'init' | 'onFill' | 'onOrder' | 'onStop'): boolean => definition[hook] !== undefined;
  const hooks = { init: has('init'), onFill: has('onFill'), onOrder: has('onOrder'), onStop: has('onStop') };
  let history: JsonValue;
  try {
    history = json(definition.history?.(parsed.data)) ?? null;
  } catch (err) {
    return { type: 'threw', message: `history(params): ${locatedMessage(err, init.file).slice(0, 380)}` };
  }
  return { type: 'loaded', name: String(definition.name), schedule: String(definition.schedule), params: json(parsed.data) ?? null, hooks, history };
}

parentPort?.postMessage(report());

/**
 * The entry of a strategy worker: evaluates the strategy module in the sandbox
 * (strategy-api/sandbox: `lockdown()` and a Compartment holding only the author API), validates
 * the instance's params with the module's own schema, then runs each hook it is asked to on a rebuilt snapshot
 * (Decimals, frozen context, `ctx.state`, `ctx.log`: what a strategy sees in-process) and posts
 * back the intents as plain data, the state writes and, as they happen, the log lines.
 *
 * Nothing here catches an error the strategy raises outside a hook (a timer): it ends the worker,
 * and the host quarantines the instance.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildContext } from '../../strategy-api/context.js';
import type { JsonValue, StrategyLogger, StrategyState } from '../../strategy-api/types.js';
import type { StrategyDefinition } from '../../strategy-api/define.js';
import type { SandboxInit } from '../../strategy-api/sandbox/instance.js';
import { locatedMessage } from '../../strategy-api/locate.js';
import { loadDefinition, parseParams } from '../../strategy-api/sandbox/instance.js';
import { decodeFill, decodeOrderEvent, decodeSnapshot, toPlain } from './codec.js';
import type { CallMessage, LogLevel, StateChanges, WorkerMessage } from './protocol.js';

interface Loaded {
  definition: StrategyDefinition<unknown>;
  params: unknown;
}

/** `ctx.state` in the worker: reads the state sent with the call, records the writes. */
class RecordingState implements StrategyState {
  private readonly writes = new Map<string, JsonValue | undefined>();

  constructor(private readonly base: Record<string, JsonValue>) {}

  get(key: string): JsonValue | undefined {
    return this.writes.has(key) ? this.writes.get(key) : this.base[key];
  }

  set(key: string, value: JsonValue): void {
    this.writes.set(key, JSON.parse(JSON.stringify(value)) as JsonValue);
  }

  delete(key: string): void {
    this.writes.set(key, undefined);
  }

  changes(): StateChanges {
    const out: StateChanges = { set: {}, deleted: [] };
    for (const [k, v] of this.writes) {
      if (v === undefined) out.deleted.push(k);
      else out.set[k] = v;
    }
    return out;
  }
}

const port = parentPort;
if (port === null) throw new Error('worker-entry runs only as a worker thread');
const init = workerData as SandboxInit;

function post(message: WorkerMessage): void {
  port?.postMessage(message);
}

const logAt =
  (level: LogLevel) =>
  (obj: object, msg?: string): void =>
    post({ type: 'log', level, obj: toPlain(obj), msg });
const log: StrategyLogger = { debug: logAt('debug'), info: logAt('info'), warn: logAt('warn'), error: logAt('error') };

async function load(): Promise<Loaded> {
  const definition = loadDefinition(init);
  const parsed = parseParams(definition, init);
  if (!parsed.success) throw new Error(`${init.file}: params refused by the module's schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return { definition, params: parsed.data };
}

const loading = load();
// Ready once loaded, or once loading failed: a load failure is reported by each call.
loading.then(
  () => post({ type: 'ready' }),
  () => post({ type: 'ready' }),
);

function invoke(d: StrategyDefinition<unknown>, msg: CallMessage, ctx: Parameters<StrategyDefinition<unknown>['onTick']>[0]): unknown {
  switch (msg.hook) {
    case 'init':
      return d.init?.(ctx);
    case 'onTick':
      return d.onTick(ctx);
    case 'onFill':
      return msg.fill === undefined ? undefined : d.onFill?.(ctx, decodeFill(msg.fill));
    case 'onOrder':
      return msg.order === undefined ? undefined : d.onOrder?.(ctx, decodeOrderEvent(msg.order));
    case 'onStop':
      return d.onStop?.(ctx);
  }
}

async function handle(msg: CallMessage): Promise<void> {
  try {
    const { definition, params } = await loading;
    const state = new RecordingState(msg.state);
    const ctx = buildContext(init.instanceId, params, decodeSnapshot(msg.snapshot), state, log);
    const value: unknown = await invoke(definition, msg, ctx);
    post({ type: 'result', seq: msg.seq, ok: true, value: toPlain(value), stateChanges: state.changes() });
  } catch (err) {
    // The strategy's file and line lead the message, as in the loader's refusals.
    post({ type: 'result', seq: msg.seq, ok: false, message: locatedMessage(err, init.file).slice(0, 500) });
  }
}

port.on('message', (msg: CallMessage) => void handle(msg));

/**
 * The bench's baseline: the strategy worker as it was before the sandbox (the module imported
 * natively by URL, no lockdown, no Compartment), driven by the same protocol, so
 * `sandbox.bench.ts` prints what the sandbox adds per hook.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildContext } from '../../src/strategy-api/context.js';
import { isStrategyDefinition } from '../../src/strategy-api/define.js';
import type { JsonValue, StrategyLogger, StrategyState } from '../../src/strategy-api/types.js';
import type { StrategyDefinition } from '../../src/strategy-api/define.js';
import type { SandboxInit } from '../../src/strategy-api/sandbox/instance.js';
import { locatedMessage } from '../../src/strategy-api/locate.js';
import { withConfiguredMarkets } from '../../src/strategy-api/market-scope.js';
import { decodeFill, decodeSnapshot, toPlain } from '../../src/engine/sandbox-worker/codec.js';
import type { CallMessage, LogLevel, StateChanges, WorkerMessage } from '../../src/engine/sandbox-worker/protocol.js';

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
  const mod = (await import(init.fileUrl)) as { default?: unknown };
  if (!isStrategyDefinition(mod.default)) throw new Error(`${init.fileUrl} does not default-export defineStrategy({...})`);
  const definition = mod.default;
  const params = withConfiguredMarkets(new Set(init.knownMarkets), () => definition.params.parse(init.params));
  return { definition, params };
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
    // The strategy's file and line lead the message, as for hooks run in the daemon's thread.
    post({ type: 'result', seq: msg.seq, ok: false, message: locatedMessage(err, init.file).slice(0, 500) });
  }
}

port.on('message', (msg: CallMessage) => void handle(msg));

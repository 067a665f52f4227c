/**
 * Runs one strategy instance in its own worker thread. Each call posts the hook, the snapshot and
 * the instance's state as plain data and waits for the intents, the state writes and the logs.
 * `abandon()` (a deadline) terminates the worker, a synchronous endless loop included; the next
 * call starts a new one. An uncaught error or unhandled rejection in the worker ends it and is
 * reported to the fault listeners (the runner quarantines the instance).
 *
 * The worker gets an empty environment and no argv: the API secret is not reachable from it. It
 * is not a security boundary: same process, same filesystem permissions.
 */
import { Worker } from 'node:worker_threads';
import type { JsonValue } from '../../strategy-api/host.js';
import type { Logger } from '../../observability/logger.js';
import { encodeFill, encodeSnapshot } from './codec.js';
import type { HookExecutor, HookRequest } from './executor.js';
import type { WorkerInit, WorkerMessage } from './protocol.js';
import { workerEntry } from './worker-entry-path.js';

export interface WorkerExecutorOptions {
  /** file: URL of the strategy module. */
  moduleUrl: string;
  instanceId: string;
  /** Params as configured; the worker validates them with the module's schema. */
  params: unknown;
  knownMarkets: readonly string[];
  /** The instance's persisted state, sent with each call. */
  stateEntries: () => Record<string, JsonValue>;
  /** Receives the strategy's `ctx.log` lines. */
  logger: Logger;
}

function logObject(obj: JsonValue | undefined): object {
  return typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? obj : { value: obj };
}

interface Pending {
  seq: number;
  request: HookRequest;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class WorkerExecutor implements HookExecutor {
  private worker: Worker | null = null;
  private pending: Pending | null = null;
  private ready: { promise: Promise<void>; resolve: () => void } | null = null;
  private seq = 0;
  private closed = false;
  private readonly faultListeners: ((err: Error) => void)[] = [];

  constructor(private readonly o: WorkerExecutorOptions) {}

  run(request: HookRequest): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error(`strategy ${this.o.instanceId}: its worker is closed`));
    const worker = this.ensure();
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending = { seq, request, resolve, reject };
      const { hook, data, fill } = request;
      const msg = { type: 'call', seq, hook, snapshot: encodeSnapshot(data), state: this.o.stateEntries(), ...(fill === undefined ? {} : { fill: encodeFill(fill) }) };
      worker.postMessage(msg);
    });
  }

  async prepare(): Promise<void> {
    if (this.closed) return;
    this.ensure();
    await this.ready?.promise;
  }

  abandon(): void {
    this.stop(new Error(`strategy ${this.o.instanceId}: worker terminated at the deadline`));
  }

  onFault(listener: (err: Error) => void): void {
    this.faultListeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop(new Error(`strategy ${this.o.instanceId}: worker closed`));
  }

  /** True while a worker thread exists (started and not yet stopped). */
  get running(): boolean {
    return this.worker !== null;
  }

  private ensure(): Worker {
    if (this.worker !== null) return this.worker;
    const init: WorkerInit = { moduleUrl: this.o.moduleUrl, instanceId: this.o.instanceId, params: this.o.params, knownMarkets: [...this.o.knownMarkets] };
    const entry = workerEntry();
    const w = new Worker(entry.script, { ...entry.options, workerData: init, env: {}, argv: [], stdin: false });
    w.unref();
    w.on('message', (m: WorkerMessage) => this.message(w, m));
    w.on('error', (err: Error) => this.fault(w, err));
    w.on('exit', (code) => this.fault(w, new Error(`strategy ${this.o.instanceId}: worker exited with code ${code}`)));
    let resolve = (): void => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    this.ready = { promise, resolve };
    this.worker = w;
    return w;
  }

  private stop(reason: Error): void {
    const w = this.worker;
    this.worker = null;
    this.settle(reason);
    if (w !== null) void w.terminate();
  }

  private settle(err: Error): void {
    this.ready?.resolve();
    this.ready = null;
    const p = this.pending;
    this.pending = null;
    p?.reject(err);
  }

  /** The worker ended by itself: an uncaught error, an unhandled rejection, process.exit. */
  private fault(w: Worker, err: Error): void {
    if (w !== this.worker) return;
    this.worker = null;
    this.settle(err);
    for (const l of this.faultListeners) l(err);
  }

  private message(w: Worker, m: WorkerMessage): void {
    if (w !== this.worker) return;
    if (m.type === 'ready') {
      this.ready?.resolve();
      return;
    }
    if (m.type === 'log') {
      this.o.logger[m.level](logObject(m.obj), m.msg);
      return;
    }
    const p = this.pending;
    if (p === null || p.seq !== m.seq) return;
    this.pending = null;
    if (!m.ok) {
      p.reject(new Error(m.message));
      return;
    }
    for (const [k, v] of Object.entries(m.stateChanges.set)) p.request.state.set(k, v);
    for (const k of m.stateChanges.deleted) p.request.state.delete(k);
    p.resolve(m.value);
  }
}

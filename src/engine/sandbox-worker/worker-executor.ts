/**
 * Runs one strategy instance in its own worker thread, inside the sandbox (docs/sandbox.md): the
 * module is evaluated in a hardened Compartment that holds only the author API, and the worker's
 * heap is bounded by `memoryMb` (past it the worker is killed and the fault quarantines the
 * instance). Each call posts the hook, the snapshot and
 * the instance's state as plain data and waits for the intents, the state writes and the logs.
 * `abandon()` (a deadline) terminates the worker, a synchronous endless loop included; the next
 * call starts a new one. An uncaught error or unhandled rejection in the worker ends it and is
 * reported to the fault listeners (the runner quarantines the instance).
 *
 * The worker gets an empty environment, no argv, no stdin, no shared memory and no port but its
 * own: `workerData` holds the compiled module, the instance's params and the market names.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { DEFAULT_BOUNDS, compileStrategy, sandboxWorkerOptions, workerEntry, type JsonValue, type SandboxInit, type WorkerEntry } from '../../strategy-api/host.js';
import type { Logger } from '../../observability/logger.js';
import { encodeFill, encodeOrderEvent, encodeSnapshot, logObject } from './codec.js';
import type { HookExecutor, HookRequest } from './executor.js';
import type { WorkerMessage } from './protocol.js';

export interface WorkerExecutorOptions {
  /** Path of the strategy module (compiled for the sandbox here; nothing of it runs in this thread). */
  file: string;
  /** The module compiled by the loader; without it the module is compiled here (tests). */
  program?: string | undefined;
  /** Heap bound of the worker, MB (config `sandbox.memoryMb`). */
  memoryMb?: number;
  /** Where the worker starts; by default the sandboxed `worker-entry` (the bench's baseline starts another). */
  entry?: WorkerEntry;
  instanceId: string;
  /** Params as configured; the worker validates them with the module's schema. */
  params: unknown;
  knownMarkets: readonly string[];
  /** The instance's persisted state, sent with each call. */
  stateEntries: () => Record<string, JsonValue>;
  /** Receives the strategy's `ctx.log` lines. */
  logger: Logger;
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

  constructor(private readonly options: WorkerExecutorOptions) {}

  run(request: HookRequest): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error(`strategy ${this.options.instanceId}: its worker is closed`));
    const worker = this.ensure();
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending = { seq, request, resolve, reject };
      const { hook, data, fill, order } = request;
      const msg = {
        type: 'call',
        seq,
        hook,
        snapshot: encodeSnapshot(data),
        state: this.options.stateEntries(),
        ...(fill === undefined ? {} : { fill: encodeFill(fill) }),
        ...(order === undefined ? {} : { order: encodeOrderEvent(order) }),
      };
      worker.postMessage(msg);
    });
  }

  async prepare(): Promise<void> {
    if (this.closed) return;
    this.ensure();
    await this.ready?.promise;
  }

  abandon(): void {
    this.stop(new Error(`strategy ${this.options.instanceId}: worker terminated at the deadline`));
  }

  onFault(listener: (err: Error) => void): void {
    this.faultListeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop(new Error(`strategy ${this.options.instanceId}: worker closed`));
  }

  /** True while a worker thread exists (started and not yet stopped). */
  get running(): boolean {
    return this.worker !== null;
  }

  private ensure(): Worker {
    if (this.worker !== null) return this.worker;
    const entry = this.options.entry ?? workerEntry(import.meta.url, 'worker-entry');
    const w = new Worker(entry.script, sandboxWorkerOptions(entry, this.options.memoryMb ?? DEFAULT_BOUNDS.memoryMb, this.init()));
    w.unref();
    w.on('message', (m: WorkerMessage) => this.message(w, m));
    w.on('error', (err: Error) => this.fault(w, this.describe(err)));
    w.on('exit', (code) => this.fault(w, new Error(`strategy ${this.options.instanceId}: worker exited with code ${code}`)));
    let resolve = (): void => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    this.ready = { promise, resolve };
    this.worker = w;
    return w;
  }

  /** The memory bound named as such (Node reports it as a worker error). */
  private describe(err: Error): Error {
    if ((err as { code?: unknown }).code !== 'ERR_WORKER_OUT_OF_MEMORY') return err;
    return new Error(`strategy ${this.options.instanceId}: passed its memory bound (sandbox.memoryMb = ${this.options.memoryMb ?? DEFAULT_BOUNDS.memoryMb}); its worker was killed`);
  }

  private init(): SandboxInit {
    const { file, instanceId, params, knownMarkets } = this.options;
    const compiled = this.options.program !== undefined ? { ok: true as const, program: this.options.program } : compileStrategy(file);
    // A refusal is reported by the worker itself: the program then only throws it.
    const program = compiled.ok ? compiled.program : `(function () { throw new Error(${JSON.stringify(compiled.message)}); })`;
    return { file, fileUrl: pathToFileURL(file).href, program, instanceId, params, knownMarkets: [...knownMarkets] };
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
      this.options.logger[m.level](logObject(m.obj), m.msg);
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

/**
 * One compile worker (compile-entry.ts) for the modules asked for together: a start-up that loads
 * its instances a few at a time asks for their modules at once, and each worker loads the
 * TypeScript compiler (~75 MB), whose memory a process keeps in part after the thread ends. The
 * worker compiles one module at a time, each with its own deadline from the moment it is sent;
 * a module past a bound, or a worker that failed, ends that worker (the module's outcome says
 * which) and the next module gets a new one. The worker ends once nothing waits: the compiler
 * never stays. Every module is still compiled outside the caller's thread, in a bounded heap.
 */
import { Worker } from 'node:worker_threads';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import { sandboxWorkerOptions, workerEntry } from './entry-path.js';
import type { Compiled } from './transform.js';

export type CompileEnded = { type: 'message'; value: Compiled } | { type: 'memory' } | { type: 'deadline' } | { type: 'failed'; message: string };

interface Job {
  file: string;
  deadlineMs: number;
  clock: Clock;
  resolve: (outcome: CompileEnded) => void;
}

export class CompileWorker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: { job: Job; abort: AbortController } | undefined;
  /** Workers started so far (tests: modules asked for together share one). */
  started = 0;

  /** `memoryMb`: the worker's heap bound (the compiler's room, not a strategy's). */
  constructor(private readonly memoryMb: number) {}

  compile(file: string, deadlineMs: number, clock: Clock): Promise<CompileEnded> {
    return new Promise<CompileEnded>((resolve) => {
      this.queue.push({ file, deadlineMs, clock, resolve });
      this.next();
    });
  }

  private next(): void {
    if (this.current !== undefined) return;
    const job = this.queue.shift();
    if (job === undefined) return this.stop();
    const worker = this.worker ?? this.start();
    const abort = new AbortController();
    this.current = { job, abort };
    worker.postMessage({ file: job.file });
    job.clock.sleep(job.deadlineMs, abort.signal).then(
      () => this.end(worker, { type: 'deadline' }),
      () => undefined,
    );
  }

  private start(): Worker {
    const entry = workerEntry(import.meta.url, 'compile-entry');
    const worker = new Worker(entry.script, sandboxWorkerOptions(entry, this.memoryMb, undefined));
    this.started++;
    worker.on('message', (value: Compiled) => this.end(worker, { type: 'message', value }));
    worker.on('error', (err) => {
      const memory = (err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.end(worker, memory ? { type: 'memory' } : { type: 'failed', message: errorMessage(err) });
    });
    worker.on('exit', (code) => this.end(worker, { type: 'failed', message: `the sandbox worker exited with code ${code}` }));
    this.worker = worker;
    return worker;
  }

  /** The current module's outcome from `worker` (events of a worker already let go are ignored). */
  private end(worker: Worker, outcome: CompileEnded): void {
    const current = this.current;
    if (current === undefined || worker !== this.worker) return;
    this.current = undefined;
    current.abort.abort();
    // Past a bound or failed: that worker is done; a module compiled leaves it for the next one.
    if (outcome.type !== 'message') this.stop();
    current.job.resolve(outcome);
    this.next();
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) void worker.terminate();
  }
}

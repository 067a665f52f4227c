/**
 * The in-thread executor without `runNow`: every hook call answered through a promise, as an
 * executor that cannot answer at once (a worker) does. Tests compare a runner over it with one
 * over the in-thread executor itself.
 */
import type { HookExecutor, HookRequest, InlineExecutor } from '../../src/engine/sandbox-worker/executor.js';

export class PromiseOnly implements HookExecutor {
  constructor(private readonly inner: InlineExecutor) {}
  run(r: HookRequest): Promise<unknown> {
    return this.inner.run(r);
  }
  async prepare(): Promise<void> {}
  isPrepared(): boolean {
    return true;
  }
  abandon(): void {}
  onFault(): void {}
  async close(): Promise<void> {}
}

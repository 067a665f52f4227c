/**
 * The graceful stop (docs/failure-modes.md #20): no new intents, a bounded drain of running work, the
 * strategies' `onStop`, optional cancels of own open orders within what is left of the bound,
 * then everything closed. Unfinished work stays in the journal for the next start.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Base, Engine } from './engine.js';
import type { Runners } from './runners.js';

export interface StopDeps {
  engine: Engine;
  scheduler: Scheduler;
  runners: Runners;
  /** Stops accepting intents and marks the daemon as stopping. */
  beginStop: () => void;
  /** Closes servers, the client, the simulator and the store. */
  close: () => Promise<void>;
}

async function cancelOwnOrders(b: Base, d: StopDeps, budgetMs: number): Promise<void> {
  const abort = new AbortController();
  const cancels = Promise.all(
    [...d.runners.keys()].map((id) =>
      d.engine.orders.cancelAll(id, undefined, 'stop: shutdown.cancelOwnOrdersOnStop').catch((err: unknown) => b.logger.warn({ err, strategy: id }, 'cancel on stop failed')),
    ),
  );
  const timeout = b.clock.sleep(budgetMs, abort.signal).then(
    () => false,
    () => false,
  );
  const complete = await Promise.race([cancels.then(() => true), timeout]);
  abort.abort();
  b.logger.info({ complete }, 'cancelled own open orders on stop');
}

/** Returns the daemon's `stop`: the first call runs the sequence, later calls share it. */
export function stopper(b: Base, d: StopDeps): (reason: string) => Promise<void> {
  const { clock, logger, config } = b;
  const bound = config.shutdown.drainTimeoutMs;
  let stopping: Promise<void> | undefined;
  const run = async (reason: string): Promise<void> => {
    logger.info({ reason }, 'stopping: no new intents');
    d.beginStop();
    await d.scheduler.stop();
    const started = clock.now();
    if (!(await d.scheduler.drain(bound))) logger.warn({ drainTimeoutMs: bound }, 'drain bound reached; unfinished work stays in the journal for the next start');
    for (const runner of d.runners.values()) {
      await runner.stop().catch((err: unknown) => logger.warn({ err, strategy: runner.id }, 'onStop failed'));
    }
    if (config.shutdown.cancelOwnOrdersOnStop) await cancelOwnOrders(b, d, Math.max(0, bound - (clock.now() - started)));
    await d.close();
    logger.info('stopped');
  };
  return (reason) => (stopping ??= run(reason));
}

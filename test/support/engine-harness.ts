/** Builds a store in a fresh temp dir plus the engine parts, for engine tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManualClock, type Clock } from '../../src/core/clock.js';
import type { ExchangeGateway } from '../../src/exchange/gateway.js';
import { silentLogger } from '../../src/observability/logger.js';
import { OrderManager, type ResolveOptions } from '../../src/engine/order-manager.js';
import { Reconciler, type ReconcilerOptions } from '../../src/engine/reconciler.js';
import { openStore, type Store } from '../../src/store/index.js';

export function tempDir(prefix = 'v4bot-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface EngineParts {
  store: Store;
  orders: OrderManager;
  reconciler: Reconciler;
  clock: Clock;
}

export function buildEngine(
  dataDir: string,
  gateway: ExchangeGateway,
  clock: Clock = new ManualClock(),
  opts: { resolve?: Partial<ResolveOptions>; reconcile?: ReconcilerOptions } = {},
): EngineParts {
  const logger = silentLogger();
  const store = openStore({ dataDir, clock, logger });
  const orders = new OrderManager({ store, gateway, clock, logger, ...(opts.resolve === undefined ? {} : { resolve: opts.resolve }) });
  const reconciler = new Reconciler({ store, gateway, clock, logger, orders }, opts.reconcile);
  return { store, orders, reconciler, clock };
}

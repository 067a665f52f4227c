/** Builds a store in a given data dir (a `tempDir()`) plus the engine parts, wired as src/daemon/ wires them, for engine tests. */
import { ManualClock, type Clock } from '../../src/core/clock.js';
import type { ExchangeGateway } from '../../src/exchange/gateway.js';
import { silentLogger, type Logger } from '../../src/observability/logger.js';
import { FillApplier } from '../../src/engine/fill-applier.js';
import { FlexCloser } from '../../src/engine/flex-close.js';
import { OrderJournal } from '../../src/engine/order-journal.js';
import { OrderManager } from '../../src/engine/order-manager.js';
import { Reconciler, type ReconcilerOptions } from '../../src/engine/reconciler.js';
import { Resolver, type ResolveOptions } from '../../src/engine/resolver.js';
import { openStore, type Store } from '../../src/store/index.js';

export interface EngineParts {
  store: Store;
  journal: OrderJournal;
  fills: FillApplier;
  resolver: Resolver;
  orders: OrderManager;
  reconciler: Reconciler;
  clock: Clock;
}

export function buildEngine(
  dataDir: string,
  gateway: ExchangeGateway,
  clock: Clock = new ManualClock(),
  opts: { resolve?: Partial<ResolveOptions>; reconcile?: ReconcilerOptions; logger?: Logger } = {},
): EngineParts {
  const logger = opts.logger ?? silentLogger();
  const store = openStore({ dataDir, clock, logger });
  const journal = new OrderJournal(store, clock);
  const fills = new FillApplier(store, clock, logger, journal);
  const flex = new FlexCloser({ store, gateway, clock, logger, journal });
  const resolver = new Resolver({ store, gateway, clock, logger, fills, journal, flex }, opts.resolve);
  const orders = new OrderManager({ store, gateway, clock, logger, journal, resolver, flex });
  const reconciler = new Reconciler({ store, gateway, clock, logger, fills, resolver }, opts.reconcile);
  return { store, journal, fills, resolver, orders, reconciler, clock };
}

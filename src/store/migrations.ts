/**
 * Versioned schema migrations. `PRAGMA user_version` holds the number of migrations applied;
 * each migration runs in its own transaction, so a crash leaves the schema at a known version.
 * Never edit a shipped migration: append a new one.
 */
import type { Database } from 'better-sqlite3';
import { StoreError } from '../core/errors.js';

export const MIGRATIONS: readonly string[] = [
  // 1: the whole initial schema. Amounts are TEXT decimal strings, times INTEGER ms.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE sequences (prefix TEXT PRIMARY KEY, next INTEGER NOT NULL);
  CREATE TABLE orders (
    client_order_id TEXT PRIMARY KEY,
    strategy_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('limit','collateral')),
    market TEXT NOT NULL,
    side TEXT NOT NULL CHECK (side IN ('buy','sell')),
    amount TEXT NOT NULL,
    price TEXT NOT NULL,
    post_only INTEGER NOT NULL,
    ioc INTEGER NOT NULL,
    rpi INTEGER NOT NULL,
    stop_loss TEXT,
    take_profit TEXT,
    position_side TEXT,
    state TEXT NOT NULL,
    order_id INTEGER UNIQUE,
    oto_id INTEGER,
    reason TEXT,
    filled_base TEXT NOT NULL DEFAULT '0',
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    unknown_since_ms INTEGER,
    resolve_looks INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX orders_strategy_state ON orders (strategy_id, state);
  CREATE INDEX orders_state ON orders (state);
  CREATE TABLE order_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    client_order_id TEXT NOT NULL REFERENCES orders (client_order_id),
    from_state TEXT,
    to_state TEXT NOT NULL,
    reason TEXT,
    at_ms INTEGER NOT NULL
  );
  CREATE INDEX order_events_order ON order_events (client_order_id);
  CREATE TABLE fills (
    deal_id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL,
    client_order_id TEXT NOT NULL,
    market TEXT NOT NULL,
    side TEXT NOT NULL,
    role TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    amount TEXT NOT NULL,
    price TEXT NOT NULL,
    quote TEXT NOT NULL,
    fee TEXT NOT NULL,
    fee_asset TEXT NOT NULL,
    strategy_id TEXT,
    owner_client_order_id TEXT
  );
  CREATE INDEX fills_strategy ON fills (strategy_id, time_ms);
  CREATE INDEX fills_order ON fills (order_id);
  CREATE TABLE children (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parent_client_order_id TEXT NOT NULL REFERENCES orders (client_order_id),
    strategy_id TEXT NOT NULL,
    oto_id INTEGER,
    kind TEXT NOT NULL CHECK (kind IN ('stop_loss','take_profit')),
    price TEXT NOT NULL,
    order_id INTEGER,
    oco_id INTEGER,
    state TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    UNIQUE (parent_client_order_id, kind)
  );
  CREATE TABLE checkpoints (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_ms INTEGER NOT NULL);
  CREATE TABLE flex_ledger (
    transaction_id TEXT PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    plan_id TEXT NOT NULL,
    investment_id TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount TEXT NOT NULL,
    action_type TEXT NOT NULL
  );
  CREATE INDEX flex_ledger_time ON flex_ledger (created_ms);
  CREATE TABLE flex_intents (
    id TEXT PRIMARY KEY,
    strategy_id TEXT NOT NULL,
    plan TEXT NOT NULL,
    state TEXT NOT NULL,
    transaction_id TEXT,
    reason TEXT,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
  );
  CREATE TABLE credit_snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    active INTEGER NOT NULL,
    asset TEXT, amount TEXT, total_funding TEXT, current_ltv TEXT, initial_ltv TEXT,
    margin_call_ltv TEXT, liquidation_ltv TEXT
  );
  CREATE TABLE strategy_state (
    strategy_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value_json TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (strategy_id, key)
  );
  CREATE TABLE alerts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL
  );
  `,
  // 2: the fill applier looks legs up by venue orderId (later partial fills of a settled leg).
  `CREATE INDEX children_order ON children (order_id);`,
  // 3: scan checkpoints in ms like every other time in the store (they were the venue's Unix
  // seconds). The same instant, so the next scan starts where the last one ended.
  `UPDATE checkpoints SET name = 'fills.scannedToMs', value = CAST(CAST(value AS INTEGER) * 1000 AS TEXT)
     WHERE name = 'executedHistory.endDate';
   UPDATE checkpoints SET name = 'flex.newestCreatedMs', value = CAST(CAST(value AS INTEGER) * 1000 AS TEXT)
     WHERE name = 'flexHistory.createdAt';`,
  // 4: what placement and cancel replies reported filled, so positions and risk count a fill the
  // venue already confirmed before its deals arrive; `provisional` marks rows where it exceeds
  // the deals applied so far (a partial index keeps that lookup cheap).
  `ALTER TABLE orders ADD COLUMN reported_filled_base TEXT NOT NULL DEFAULT '0';
   ALTER TABLE orders ADD COLUMN reported_filled_quote TEXT NOT NULL DEFAULT '0';
   ALTER TABLE orders ADD COLUMN provisional INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX orders_provisional ON orders (provisional) WHERE provisional = 1;`,
  // 5: the operator console: an equity time series (bounded by the repository), the control
  // actions with who and when, and the strategies an operator paused (kept across restarts).
  `CREATE TABLE equity_history (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at_ms INTEGER NOT NULL,
     equity TEXT NOT NULL,
     peak TEXT NOT NULL
   );
   CREATE TABLE control_actions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at_ms INTEGER NOT NULL,
     action TEXT NOT NULL,
     target TEXT,
     who TEXT NOT NULL,
     remote TEXT,
     result TEXT NOT NULL,
     detail TEXT
   );
   CREATE TABLE paused_strategies (
     strategy_id TEXT PRIMARY KEY,
     at_ms INTEGER NOT NULL,
     who TEXT NOT NULL
   );`,
  // 6: prices the daemon saw in the futures listing, one per market per minute, for backtests
  // (`npm run prices -- export`, docs/backtesting.md § Recording prices). Retention: 30 days.
  `CREATE TABLE price_samples (
    market TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    price TEXT NOT NULL,
    PRIMARY KEY (market, time_ms)
  ) WITHOUT ROWID;
  CREATE INDEX price_samples_time ON price_samples (time_ms);`,
  // 7: the balance audit (docs/balance-audit.md): where each asset's window starts (main balance
  // and books' total at the last accountable audit; NULLs while an asset waits for its first
  // one), and the audits' results for `npm run status` (bounded by the repository).
  `CREATE TABLE audit_baseline (
    asset TEXT PRIMARY KEY,
    balance TEXT,
    books TEXT,
    at_ms INTEGER
  ) WITHOUT ROWID;
  CREATE TABLE balance_audits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    from_ms INTEGER,
    detail_json TEXT NOT NULL
  );`,
  // 8: one-minute OHLCV candles folded from the futures listing or imported (docs/market-data.md).
  // Closed minutes in candles_1m (longer timeframes are aggregated from them on read); the minute
  // still being built, one per market, in candles_open until its minute has ended. Volume NULL
  // when unknown (the listing's volume is a 24 h rolling figure).
  `CREATE TABLE candles_1m (
    market TEXT NOT NULL,
    open_ms INTEGER NOT NULL,
    open TEXT NOT NULL,
    high TEXT NOT NULL,
    low TEXT NOT NULL,
    close TEXT NOT NULL,
    volume TEXT,
    PRIMARY KEY (market, open_ms)
  ) WITHOUT ROWID;
  CREATE INDEX candles_1m_time ON candles_1m (open_ms);
  CREATE TABLE candles_open (
    market TEXT PRIMARY KEY,
    open_ms INTEGER NOT NULL,
    open TEXT NOT NULL,
    high TEXT NOT NULL,
    low TEXT NOT NULL,
    close TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
  ) WITHOUT ROWID;`,
  // 9: an order's final state (FILLED, CANCELLED, REJECTED) for its strategy's onOrder hook,
  // written with the state change; delivered_ms is set once the hook ran (exactly once across
  // restarts). Orders that ended before this migration get no event.
  `CREATE TABLE order_finals (
    client_order_id TEXT PRIMARY KEY,
    strategy_id TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL,
    venue TEXT,
    at_ms INTEGER NOT NULL,
    delivered_ms INTEGER
  ) WITHOUT ROWID;
  CREATE INDEX order_finals_undelivered ON order_finals (at_ms) WHERE delivered_ms IS NULL;`,
  // 10: the legs not yet settled (children.live: the reconciler, the fill applier and collateral
  // strategies read them after every write of a leg) by an index over only those, not a scan of
  // every leg ever made. The WHERE is the read's own, so the planner can take it.
  `CREATE INDEX children_live ON children (state) WHERE state IN ('armed','active','missing');`,
];

/** Applies every migration not yet applied. Throws `StoreError('migration')` on failure. */
export function migrate(db: Database, migrations: readonly string[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new StoreError(
      'migration',
      `store schema version ${current} is newer than this build knows (${migrations.length}); refusing to open`,
      { current, known: migrations.length },
    );
  }
  for (let v = current; v < migrations.length; v++) {
    const sql = migrations[v] as string;
    try {
      db.transaction(() => {
        db.exec(sql);
        db.pragma(`user_version = ${v + 1}`);
      })();
    } catch (err) {
      throw new StoreError('migration', `migration ${v + 1} failed`, { version: v + 1 }, { cause: err });
    }
  }
  return migrations.length;
}

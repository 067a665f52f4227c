import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { StoreError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { DB_FILE, SCRATCH_CACHE_KIB, openStore, type Store } from '../../../src/store/index.js';
import { MIGRATIONS, migrate } from '../../../src/store/migrations.js';
import { tempDir } from '../../support/temp-dir.js';
import { memoryStore } from '../../support/test-scope.js';

const dir = (): string => tempDir('v4bot-store-');
const open = (d: string) => openStore({ dataDir: d, clock: new ManualClock(), logger: silentLogger() });

/** A transaction that throws: the error reaches the caller; what it wrote is asserted gone by the caller. */
function expectRollsBack(store: Pick<Store, 'tx' | 'meta'>): void {
  expect(() =>
    store.tx(() => {
      store.meta.set('rolled-back', '1');
      throw new Error('boom');
    }),
  ).toThrow(/boom/);
}

describe('store', () => {
  it('creates files 0600, uses WAL and synchronous FULL, and migrates to the latest version', () => {
    const d = dir();
    const store = open(d);
    store.orders.reserveSequence('x', 1, 1);
    const file = path.join(d, DB_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(d, 'instance.lock')).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    store.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    raw.close();
  });

  it('durability memory (a backtest\'s store): all migrations, transactions, nothing on disk, no data dir made', () => {
    const d = path.join(dir(), 'never-made');
    const store = memoryStore({ dataDir: d });
    expect(store.file).toBe(':memory:');
    expect(store.durable).toBe(false);
    store.meta.set('kept', '1');
    expectRollsBack(store);
    expect([store.meta.get('kept'), store.meta.get('rolled-back')]).toEqual(['1', undefined]);
    expect(store.fills.count()).toBe(0);
    expect(() => statSync(d)).toThrow();
  });

  it('durability scratch (a backtest\'s store): a private temp file, no fsync, journal in memory, a bounded page cache, removed at close', () => {
    const d = path.join(dir(), 'never-made');
    const store = openStore({ dataDir: d, clock: new ManualClock(), logger: silentLogger(), durability: 'scratch' });
    const home = path.dirname(store.file);
    expect(path.dirname(home)).toBe(path.resolve(tmpdir()));
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(store.durable).toBe(false);
    expect(() => statSync(d)).toThrow();
    // Rows far beyond the page cache: the file holds them, the process keeps at most the cache.
    const row = 'x'.repeat(1000);
    store.tx(() => {
      for (let i = 0; i < 3 * SCRATCH_CACHE_KIB; i++) store.meta.set(`k${i}`, row);
    });
    expect(statSync(store.file).size).toBeGreaterThan(2 * SCRATCH_CACHE_KIB * 1024);
    expect(store.meta.get('k7')).toBe(row);
    // A failed transaction still rolls back (the journal is in memory, not off).
    expectRollsBack(store);
    expect(store.meta.get('rolled-back')).toBeUndefined();
    store.close();
    expect(() => statSync(home)).toThrow();
    store.close();
  });

  it('is durable by default (what the daemon opens); durability none (a backtest throwaway store) skips fsync and the WAL', () => {
    const durable = open(dir());
    expect(durable.durable).toBe(true);
    durable.close();
    const d = dir();
    const store = openStore({ dataDir: d, clock: new ManualClock(), logger: silentLogger(), durability: 'none' });
    expect(store.durable).toBe(false);
    store.meta.set('kept', '1');
    // Transactions stay all-or-nothing without the on-disk journal.
    expectRollsBack(store);
    expect(store.meta.get('rolled-back')).toBeUndefined();
    expect(store.meta.get('kept')).toBe('1');
    store.close();
    const raw = new Database(path.join(d, DB_FILE), { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).not.toBe('wal');
    raw.close();
  });

  it('a store written by an older build (schema 1) is migrated on open, data kept', () => {
    const d = dir();
    const old = new Database(path.join(d, DB_FILE));
    migrate(old, MIGRATIONS.slice(0, 1));
    old.prepare("INSERT INTO meta (key, value) VALUES ('k', 'v')").run();
    old.close();
    const store = open(d);
    expect(store.meta.get('k')).toBe('v');
    store.close();
    const raw = new Database(path.join(d, DB_FILE), { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'children_order'").get()).toBeDefined();
    raw.close();
  });

  it('scan checkpoints an older build kept in Unix seconds are migrated to the same instants in ms', () => {
    const d = dir();
    const old = new Database(path.join(d, DB_FILE));
    migrate(old, MIGRATIONS.slice(0, 2));
    const put = old.prepare('INSERT INTO checkpoints (name, value, updated_ms) VALUES (?, ?, 1)');
    put.run('executedHistory.endDate', '1700000123');
    put.run('flexHistory.createdAt', '1699990000');
    put.run('reconcile.completedMs', '1700000123456');
    old.close();
    const store = open(d);
    expect(store.checkpoints.get('fills.scannedToMs')?.value).toBe('1700000123000');
    expect(store.checkpoints.get('flex.newestCreatedMs')?.value).toBe('1699990000000');
    expect(store.checkpoints.get('reconcile.completedMs')?.value).toBe('1700000123456');
    expect(store.checkpoints.get('executedHistory.endDate')).toBeUndefined();
    expect(store.checkpoints.get('flexHistory.createdAt')).toBeUndefined();
    store.close();
  });

  it('migrations are versioned: a later migration applies on reopen, a newer schema is refused', () => {
    const d = dir();
    const db = new Database(path.join(d, 'm.sqlite'));
    expect(migrate(db, ['CREATE TABLE a (x)'])).toBe(1);
    expect(migrate(db, ['CREATE TABLE a (x)', 'CREATE TABLE b (y)'])).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeDefined();
    expect(() => migrate(db, ['CREATE TABLE a (x)'])).toThrow(StoreError);
    expect(() => migrate(db, ['CREATE TABLE a (x)', 'CREATE TABLE b (y)', 'NOT SQL'])).toThrow(/migration 3 failed/);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('a second process on the same data dir gets StoreError(locked) naming the dir and the holder pid', async () => {
    const d = dir();
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/support/engine-lock-child.ts'), d], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => {
          if (b.toString().includes('READY')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
      });
      let err: unknown;
      try {
        open(d).close();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StoreError);
      expect((err as StoreError).kind).toBe('locked');
      expect((err as StoreError).message).toContain(d);
      expect((err as StoreError).context['holderPid']).toBe(String(child.pid));
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    // The kernel released the lock with the killed holder: no stale lock.
    open(d).close();
  });

  it('a second open in the same process is refused while the first is open, allowed after close', () => {
    const d = dir();
    const a = open(d);
    expect(() => open(d)).toThrow(StoreError);
    a.close();
    open(d).close();
  });

  it('keeps amounts as exact decimal strings and persists strategy state and nonce', () => {
    const d = dir();
    const s1 = open(d);
    s1.tx(() =>
      s1.orders.insertPending(
        { clientOrderId: 'a-1', strategyId: 's', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.123456789012345678901'), price: new Decimal('60000.01'), postOnly: false, ioc: false, rpi: false },
        5,
      ),
    );
    s1.strategyState('s').set('k', { n: 1, list: ['x'] });
    s1.noncePersistence().save(1_700_000_000_123);
    s1.close();
    const s2 = open(d);
    expect(s2.orders.get('a-1')?.amount.toFixed()).toBe('0.123456789012345678901');
    expect(s2.strategyState('s').get('k')).toEqual({ n: 1, list: ['x'] });
    expect(s2.strategyState('other').get('k')).toBeUndefined();
    s2.strategyState('s').delete('k');
    expect(s2.strategyState('s').entries()).toEqual({});
    expect(s2.noncePersistence().load()).toBe(1_700_000_000_123);
    expect(s2.orders.history('a-1').map((e) => e.to)).toEqual(['PENDING']);
    s2.close();
  });

  it('a failed write inside tx is a StoreError and nothing of the transaction persists', () => {
    const d = dir();
    const s = open(d);
    expect(() =>
      s.tx(() => {
        s.meta.set('a', '1');
        s.orders.setState('nope', 'PENDING', 'OPEN', null, 1);
        throw new Error('boom');
      }),
    ).toThrow(StoreError);
    expect(s.meta.get('a')).toBeUndefined();
    s.close();
  });
});

describe('scan stage', () => {
  it('de-duplicates by deal id, reads back oldest first in chunks across equal times, and leaves the database file alone', () => {
    const d = dir();
    const store = open(d);
    const stage = store.scanStage;
    stage.clear();
    const deal = (dealId: number, timeMs: number) => ({ dealId, timeMs, payload: `p${dealId}` });
    expect(stage.add([deal(5, 300), deal(4, 200), deal(3, 200)])).toBe(3);
    expect(stage.add([deal(3, 200), deal(2, 200), deal(1, 100)])).toBe(2); // 3 was already staged
    expect(stage.count()).toBe(5);
    const chunks = [...stage.chunks(2)].map((c) => c.map((r) => r.dealId));
    expect(chunks).toEqual([[1, 2], [3, 4], [5]]);
    expect([...stage.chunks(5)].map((c) => c.length)).toEqual([5]);
    expect([...stage.chunks(1)].flat().map((r) => r.payload)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    stage.clear();
    expect(stage.count()).toBe(0);
    expect([...stage.chunks(10)]).toEqual([]);
    store.close();
    const raw = new Database(path.join(d, DB_FILE), { readonly: true });
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'scan_stage%'").all()).toEqual([]);
    raw.close();
  });
});

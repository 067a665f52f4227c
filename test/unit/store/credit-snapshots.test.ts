/**
 * Credit-line snapshots stay bounded to the newest KEPT_SNAPSHOTS (flex-credit-repos.ts): nothing
 * is deleted before the table holds that many, then each new snapshot drops the oldest.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { KEPT_SNAPSHOTS } from '../../../src/store/flex-credit-repos.js';
import { tempDir } from '../../support/temp-dir.js';

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function ids(store: Store): { n: number; lo: number; hi: number } {
  const db = new Database(store.file, { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM credit_snapshots').get() as { n: number; lo: number; hi: number };
  } finally {
    db.close();
  }
}

describe('credit-line snapshots', () => {
  it('keep the newest KEPT_SNAPSHOTS, deleting nothing before', () => {
    const store = openStore({ dataDir: tempDir(), clock: new ManualClock(0), logger: silentLogger() });
    stores.push(store);
    const record = (i: number): void =>
      store.credit.record({ atMs: i, active: true, asset: 'USDT', amount: dec(String(i)), totalFunding: null, currentLtv: null, initialLtv: null, marginCallLtv: null, liquidationLtv: null });
    store.tx(() => {
      for (let i = 1; i <= KEPT_SNAPSHOTS; i++) record(i);
    });
    expect(ids(store)).toEqual({ n: KEPT_SNAPSHOTS, lo: 1, hi: KEPT_SNAPSHOTS });
    store.tx(() => {
      for (let i = KEPT_SNAPSHOTS + 1; i <= KEPT_SNAPSHOTS + 7; i++) record(i);
    });
    expect(ids(store)).toEqual({ n: KEPT_SNAPSHOTS, lo: 8, hi: KEPT_SNAPSHOTS + 7 });
    expect(store.credit.latest()?.amount?.toFixed()).toBe(String(KEPT_SNAPSHOTS + 7));
  });
});

/** The live legs are read through their partial index (migration 10), not a scan of every leg ever made. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LIVE_LEGS_SQL } from '../../../src/store/children-repo.js';
import { MIGRATIONS, migrate } from '../../../src/store/migrations.js';

describe('children_live', () => {
  it('answers the live legs read, which a store migrated from before it also gets', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 9));
    const insert = db.prepare("INSERT INTO orders (client_order_id, strategy_id, kind, market, side, amount, price, post_only, ioc, rpi, state, created_ms, updated_ms) VALUES (?, 's', 'collateral', 'BTC_USDT', 'buy', '1', '10', 0, 0, 0, 'FILLED', 1, 1)");
    const leg = db.prepare("INSERT INTO children (parent_client_order_id, strategy_id, kind, price, state, updated_ms) VALUES (?, 's', ?, '9', ?, 1)");
    const states = ['filled', 'cancelled', 'armed', 'active', 'missing', 'cancelled'];
    states.forEach((state, i) => {
      insert.run(`p${i}`);
      leg.run(`p${i}`, 'stop_loss', state);
    });
    const before = db.prepare(LIVE_LEGS_SQL).all();
    migrate(db);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LIVE_LEGS_SQL}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan).toContain('USING INDEX children_live');
    expect(db.prepare(LIVE_LEGS_SQL).all()).toEqual(before);
    expect((db.prepare(LIVE_LEGS_SQL).all() as { state: string }[]).map((r) => r.state)).toEqual(['armed', 'active', 'missing']);
    db.close();
  });
});

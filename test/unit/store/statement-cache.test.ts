import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachePreparedStatements, MAX_CACHED_STATEMENTS } from '../../../src/store/statement-cache.js';

function db(): Database.Database {
  const d = new Database(':memory:');
  d.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
  cachePreparedStatements(d);
  return d;
}

describe('prepared-statement cache', () => {
  it('hands out the same statement for the same SQL, each run with its own parameters', () => {
    const d = db();
    const insert = d.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
    expect(d.prepare('INSERT INTO t (k, v) VALUES (?, ?)')).toBe(insert);
    insert.run(1, 'a');
    d.prepare('INSERT INTO t (k, v) VALUES (?, ?)').run(2, 'b');
    expect(d.prepare('SELECT v FROM t WHERE k = ?').get(2)).toEqual({ v: 'b' });
    expect(d.prepare('SELECT v FROM t WHERE k = ?').get(1)).toEqual({ v: 'a' });
    d.close();
  });

  it('a statement still being iterated is not handed out again: the same query can run inside it', () => {
    const d = db();
    for (let k = 1; k <= 3; k++) d.prepare('INSERT INTO t (k, v) VALUES (?, ?)').run(k, `v${k}`);
    const pairs: string[] = [];
    for (const outer of d.prepare('SELECT k FROM t ORDER BY k').iterate() as IterableIterator<{ k: number }>) {
      const inner = d.prepare('SELECT k FROM t ORDER BY k').all() as { k: number }[];
      pairs.push(`${outer.k}:${inner.length}`);
    }
    expect(pairs).toEqual(['1:3', '2:3', '3:3']);
    d.close();
  });

  it('stays bounded when SQL is built per call', () => {
    const d = db();
    const first = d.prepare('SELECT 0');
    for (let i = 1; i <= MAX_CACHED_STATEMENTS; i++) d.prepare(`SELECT ${i}`);
    // The cache started over once full: the first statement was dropped and is compiled anew.
    expect(d.prepare('SELECT 0')).not.toBe(first);
    expect(d.prepare('SELECT 0').get()).toEqual({ '0': 0 });
    d.close();
  });
});

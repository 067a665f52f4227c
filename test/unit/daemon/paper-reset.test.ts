/**
 * `resetPaperAccount`: moves the bot's store and the paper venue file (with their -wal/-shm) into
 * one archive folder under the instance lock, leaves other files, does nothing on an empty or
 * missing data dir, and refuses while a daemon holds the data dir.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { PAPER_STATE_FILE } from '../../../src/daemon/paper-venue.js';
import { archiveDirOf, resetPaperAccount } from '../../../src/daemon/paper-reset.js';
import { DB_FILE } from '../../../src/store/index.js';
import { acquireInstanceLock } from '../../../src/store/lock.js';
import { tempDir } from '../../support/temp-dir.js';

const clock = new ManualClock(Date.UTC(2026, 10, 23, 2, 30, 0, 5));

describe('resetPaperAccount', () => {
  it('archives the store and the venue file together, and only them', () => {
    const dir = tempDir();
    for (const f of [DB_FILE, `${DB_FILE}-wal`, PAPER_STATE_FILE, `${PAPER_STATE_FILE}-wal`, 'prices.csv']) writeFileSync(path.join(dir, f), f);
    const r = resetPaperAccount(dir, clock);
    expect(r.archiveDir).toBe(path.join(dir, 'archive', 'paper-2026-11-23T02-30-00-005Z'));
    expect(r.archiveDir).toBe(archiveDirOf(dir, clock.now()));
    expect(readdirSync(r.archiveDir as string).sort()).toEqual([DB_FILE, `${DB_FILE}-wal`, PAPER_STATE_FILE, `${PAPER_STATE_FILE}-wal`].sort());
    expect(existsSync(path.join(dir, DB_FILE))).toBe(false);
    expect(existsSync(path.join(dir, 'prices.csv'))).toBe(true);
  });

  it('does nothing where there is no account', () => {
    expect(resetPaperAccount(path.join(tempDir(), 'missing'), clock)).toEqual({ archiveDir: null, moved: [] });
    const dir = tempDir();
    expect(resetPaperAccount(dir, clock)).toEqual({ archiveDir: null, moved: [] });
    expect(existsSync(path.join(dir, 'archive'))).toBe(false);
  });

  it('refuses while a daemon holds the data dir, moving nothing', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, DB_FILE), 'x');
    const lock = acquireInstanceLock(dir);
    try {
      expect(() => resetPaperAccount(dir, clock)).toThrow(/already in use by another bot process/);
    } finally {
      lock.release();
    }
    expect(existsSync(path.join(dir, DB_FILE))).toBe(true);
  });
});

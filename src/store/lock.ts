/**
 * Exclusive instance lock for a data dir (docs/failure-modes.md #19). The lock is an OS file lock held by
 * a tiny SQLite file in `locking_mode=EXCLUSIVE`: the kernel releases it when the holder dies, even
 * by SIGKILL, so a crashed daemon never leaves a stale lock behind. The holder's pid is written
 * beside it only to make the error message useful.
 */
import Database from 'better-sqlite3';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StoreError } from '../core/errors.js';
import { ensurePrivateFile } from './files.js';

export interface InstanceLock {
  release(): void;
}

export const LOCK_FILE = 'instance.lock';
export const LOCK_PID_FILE = 'instance.lock.pid';

function readHolder(pidPath: string): string {
  try {
    return readFileSync(pidPath, 'utf8').trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Takes the lock or throws `StoreError('locked')` naming the dir and the holder's pid. */
export function acquireInstanceLock(dataDir: string): InstanceLock {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const pidPath = path.join(dataDir, LOCK_PID_FILE);
  ensurePrivateFile(lockPath);
  const db = new Database(lockPath, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the EXCLUSIVE lock; in exclusive mode it is kept until close.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS holder (pid INTEGER); COMMIT;');
  } catch (err) {
    db.close();
    const holder = readHolder(pidPath);
    const busy = err instanceof Error && /SQLITE_BUSY|locked/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);
    if (busy) {
      throw new StoreError(
        'locked',
        `data dir ${dataDir} is already in use by another bot process (pid ${holder}); stop it or use another BOT_DATA_DIR`,
        { dataDir, holderPid: holder },
      );
    }
    throw new StoreError('io', `cannot take the instance lock in ${dataDir}`, { dataDir }, { cause: err });
  }
  writeFileSync(pidPath, `${process.pid}\n`, { mode: 0o600 });
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      try {
        rmSync(pidPath, { force: true });
      } finally {
        db.close();
      }
    },
  };
}

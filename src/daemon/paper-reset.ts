/**
 * `--reset-paper`: a fresh paper account on purpose. The paper venue's state file and the bot's
 * store of the data dir are moved together into `<dataDir>/archive/paper-<time>/`, under the
 * data dir's instance lock, so the new account starts with an empty journal: no orders, fills,
 * positions, strategy state, trading state or equity peak of the old account survive into it,
 * and nothing is deleted (the archive reads with `npm run status -- --data-dir <archive>`).
 * Why both, and not the venue alone: docs/paper-account.md.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import { DB_FILE } from '../store/index.js';
import { acquireInstanceLock } from '../store/lock.js';
import { PAPER_STATE_FILE } from './paper-venue.js';

/** SQLite keeps a database in up to three files; they move together or the copy is inconsistent. */
const SUFFIXES = ['', '-wal', '-shm'];

export interface PaperReset {
  /** Where the old account went; null when the data dir held none. */
  archiveDir: string | null;
  /** File names moved. */
  moved: string[];
}

/** Where a reset at `nowMs` archives: a name that sorts by time and is valid on every file system. */
export function archiveDirOf(dataDir: string, nowMs: number): string {
  return path.join(path.resolve(dataDir), 'archive', `paper-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`);
}

/** Moves the paper account and its journal out of `dataDir`; throws StoreError('locked') while a daemon runs there. */
export function resetPaperAccount(dataDir: string, clock: Clock): PaperReset {
  const dir = path.resolve(dataDir);
  if (!existsSync(dir)) return { archiveDir: null, moved: [] };
  const lock = acquireInstanceLock(dir);
  try {
    const names = [DB_FILE, PAPER_STATE_FILE].flatMap((f) => SUFFIXES.map((s) => f + s)).filter((n) => existsSync(path.join(dir, n)));
    if (names.length === 0) return { archiveDir: null, moved: [] };
    const archiveDir = archiveDirOf(dir, clock.now());
    mkdirSync(archiveDir, { recursive: true, mode: 0o700 });
    for (const n of names) renameSync(path.join(dir, n), path.join(archiveDir, n));
    return { archiveDir, moved: names };
  } finally {
    lock.release();
  }
}

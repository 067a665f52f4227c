/** File-mode helpers: everything the store writes is private to the bot's user (0600 / 0700). */
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates `file` with mode 0600 if missing and tightens its mode if it exists. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Tightens the mode of a file SQLite created by itself (-wal, -shm), when present. */
export function tightenIfExists(file: string): void {
  if (existsSync(file)) chmodSync(file, 0o600);
}

/** Temp directories made here and not yet removed: removed when the process exits, whatever ended it. */
const openTempDirs = new Set<string>();
let exitHook = false;

/**
 * A new directory of its own in the OS temp dir, mode 0700 (mkdtemp creates it so). It is removed
 * by `removeDir`, or at the latest when the process exits (an error, `process.exit`, or a signal
 * the program turns into an exit, as the backtest CLI does): a year's backtest store is hundreds
 * of MB that must not stay behind in the temp dir.
 */
export function privateTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o700);
  openTempDirs.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const d of openTempDirs) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Removes a directory made by privateTempDir and everything in it; nothing when it is gone already. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  openTempDirs.delete(dir);
}

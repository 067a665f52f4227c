/**
 * Runs the built daemon (`dist/`) as a child process for end-to-end tests, plus small helpers:
 * a free loopback port, a counting HTTP server, reading `status --json`. Polling: eventually.ts.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { tempDir } from './temp-dir.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The built entry point (the build keeps `src/` in its paths). */
export function distEntry(name: 'daemon' | 'status'): string {
  for (const p of [path.join(ROOT, 'dist/src/cli', `${name}.js`), path.join(ROOT, 'dist/cli', `${name}.js`)]) if (existsSync(p)) return p;
  throw new Error(`dist entry ${name} missing: build first (npx tsc -p tsconfig.build.json)`);
}

/** Writes `config` as JSON in a new temp dir (removed as `tempDir` says) and returns its path. */
export function writeConfig(config: unknown, dir = tempDir()): string {
  const file = path.join(dir, 'bot.json');
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return file;
}

export interface DaemonProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) once its output is fully read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Env of the test process without anything that could point the daemon elsewhere. */
function baseEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(BOT_|API_|ENV_FILE|LOG_LEVEL|PM2_)/.test(k)) continue;
    out[k] = v;
  }
  return out;
}

export function spawnDaemon(env: Record<string, string>, cwd = tempDir(), args: string[] = []): DaemonProcess {
  const child = spawn(process.execPath, [distEntry('daemon'), ...args], { cwd, env: { ...baseEnv(), LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  // 'close', not 'exit': 'exit' may come before the last output chunks arrive through the pipes.
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * `spawnDaemon` for the current test: a daemon still running when the test finishes (a failed
 * assertion before its stop) is killed and awaited, so it neither outlives the test nor writes
 * into a directory being removed.
 */
export function daemonForTest(env: Record<string, string>, cwd?: string, args?: string[]): DaemonProcess {
  const p = spawnDaemon(env, cwd, args);
  onTestFinished(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  });
  return p;
}

/** `node dist/.../status.js --json --data-dir DIR`, parsed. */
export function status(dataDir: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [distEntry('status'), '--json', '--data-dir', dataDir], { env: baseEnv() }, (err, stdout) => {
      if (err !== null) reject(err);
      else resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

/** An HTTP server on 127.0.0.1 that answers 503 and counts requests. */
export async function countingServer(): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let n = 0;
  const server: Server = createServer((_req, res) => {
    n++;
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"fixture"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => n,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** JSON log lines of a daemon's stdout. */
export function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

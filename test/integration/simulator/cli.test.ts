import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { tempDir } from '../../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const base = { ...process.env };
  delete base['SIM_API_KEY'];
  delete base['SIM_API_SECRET'];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...base, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': 'exit' may come before the last output chunks arrive through the pipes.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

/** Starting tsx takes seconds on a busy machine. */
const START = { timeoutMs: 15_000, everyMs: 50 };

/** The URL the sim prints once it listens; a sim that exited first is reported with its stderr. */
function listeningUrl(p: ReturnType<typeof run>): Promise<string> {
  return eventually(() => {
    if (p.child.exitCode !== null) throw new Error(`sim exited: ${p.err()}`);
    return /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.out())?.[1];
  }, 'the sim to listen', START);
}

/** Waits for the URL, asks the USDT balance signed with `key`/`secret`; resolves the HTTP status. */
async function balanceStatus(p: ReturnType<typeof run>, key: string, secret: string): Promise<number> {
  const url = await listeningUrl(p);
  const body = JSON.stringify({ ticker: 'USDT', request: '/api/v4/main-account/balance', nonce: '1' });
  const payload = Buffer.from(body).toString('base64');
  const res = await fetch(`${url}/api/v4/main-account/balance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-TXC-APIKEY': key, 'X-TXC-PAYLOAD': payload, 'X-TXC-SIGNATURE': createHmac('sha512', secret).update(payload).digest('hex') },
    body,
  });
  return res.status;
}

describe('sim CLI', () => {
  it('starts, prints its URL, serves signed requests with the given key, stops on SIGINT with 0', async () => {
    const p = run(['--port', '0', '--api-key', 'K', '--api-secret', 'S', '--seed', '3', '--balances', 'USDT=123.45,BTC=1']);
    const url = await listeningUrl(p);
    const body = JSON.stringify({ ticker: 'USDT', request: '/api/v4/main-account/balance', nonce: '1' });
    const payload = Buffer.from(body).toString('base64');
    const res = await fetch(`${url}/api/v4/main-account/balance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-TXC-APIKEY': 'K', 'X-TXC-PAYLOAD': payload, 'X-TXC-SIGNATURE': createHmac('sha512', 'S').update(payload).digest('hex') },
      body,
    });
    expect(await res.json()).toEqual({ USDT: { main_balance: '123.45' } });
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
  });

  it('takes the secret from SIM_API_SECRET or --api-secret-file, off the command line and without a warning', async () => {
    const fromEnv = run(['--port', '0', '--api-key', 'K'], { SIM_API_SECRET: 'env-secret' });
    expect(await balanceStatus(fromEnv, 'K', 'env-secret')).toBe(200);
    fromEnv.child.kill('SIGINT');
    expect(await fromEnv.exit).toBe(0);
    expect(fromEnv.err()).toBe('');
    const file = path.join(tempDir('sim-secret-'), 'secret');
    writeFileSync(file, 'file-secret\n', { mode: 0o600 });
    const fromFile = run(['--port', '0', '--api-secret-file', file], { SIM_API_KEY: 'FK' });
    expect(await balanceStatus(fromFile, 'FK', 'file-secret')).toBe(200);
    fromFile.child.kill('SIGINT');
    expect(await fromFile.exit).toBe(0);
    expect(fromFile.err()).toBe('');
    expect(fromFile.out()).not.toContain('file-secret');
  });

  it('still takes --api-secret on the command line, with a warning pointing to the safe ways', async () => {
    const p = run(['--port', '0', '--api-key', 'K', '--api-secret', 'argv-secret']);
    expect(await balanceStatus(p, 'K', 'argv-secret')).toBe(200);
    expect(p.err()).toContain('SIM_API_SECRET');
    expect(p.err()).not.toContain('argv-secret');
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
  });

  it('refuses a secret without its key, and an unreadable secret file, without echoing them', async () => {
    const orphan = run(['--port', '0'], { SIM_API_SECRET: 'lonely-secret' });
    expect(await orphan.exit).toBe(2);
    expect(orphan.err()).not.toContain('lonely-secret');
    const missing = run(['--port', '0', '--api-key', 'K', '--api-secret-file', '/nonexistent/secret']);
    expect(await missing.exit).toBe(2);
    expect(missing.err()).toContain('usage:');
  });

  it('prints a generated key pair when no key flags are given', async () => {
    const p = run(['--port', '0']);
    await eventually(() => /api secret: [0-9a-f]+/.test(p.out()), 'the generated key pair', START);
    expect(p.out()).toMatch(/api key: [0-9a-f]{32}\napi secret: [0-9a-f]{64}/);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });

  it.each([[['--port', 'x']], [['--bogus']], [['--api-key', 'K']], [['--balances', 'USDT=abc']]])('rejects %j with usage and exit 2', async (args) => {
    const p = run(args);
    expect(await p.exit).toBe(2);
    expect(p.err()).toContain('usage:');
  });
});

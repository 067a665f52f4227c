import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function run(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function waitFor(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('sim CLI', () => {
  it('starts, prints its URL, serves signed requests with the given key, stops on SIGINT with 0', async () => {
    const p = run(['--port', '0', '--api-key', 'K', '--api-secret', 'S', '--seed', '3', '--balances', 'USDT=123.45,BTC=1']);
    await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.test(p.out()));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.out())?.[1];
    expect(url).toBeDefined();
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

  it('prints a generated key pair when no key flags are given', async () => {
    const p = run(['--port', '0']);
    await waitFor(() => /api secret: [0-9a-f]+/.test(p.out()));
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

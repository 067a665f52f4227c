/**
 * The example candle strategy in paper mode: `BOT_CONFIG=config/candles.json` starts a built
 * daemon, whose empty store cannot fill ema-cross's declared window: it says so in its log, in
 * `status` (JSON and text) and in the dashboard's state, and stops cleanly.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, daemonForTest, distEntry, freePort, logLines, status } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';
import { tempDir } from '../support/temp-dir.js';

function statusText(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [distEntry('status'), '--data-dir', dataDir], (err, stdout) => (err === null ? resolve(stdout) : reject(err)));
  });
}

describe('config/candles.json in paper mode', () => {
  it('starts, and says the declared window is warming up', async () => {
    const dataDir = tempDir('v4bot-candles-paper-');
    const port = await freePort();
    const d = daemonForTest({ BOT_CONFIG: path.join(ROOT, 'config/candles.json'), BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(port) });
    await eventually(() => logLines(d.stdout()).some((l) => l['msg'] === 'daemon ready'), 'daemon ready', { timeoutMs: 60_000, everyMs: 300 });
    const warn = logLines(d.stdout()).find((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('warm-up: fewer candles than declared'));
    expect(warn?.['msg']).toContain('ema1 BTC_USDT 15m 0/63');
    const st = await status(dataDir);
    expect(st['warmUp']).toEqual([{ strategyId: 'ema1', market: 'BTC_USDT', timeframe: '15m', want: 63, have: 0 }]);
    expect(await statusText(dataDir)).toContain('Warm-up: ema1 BTC_USDT 15m 0 of 63 candles');
    const state = (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as { strategies: { id: string; warmUp: unknown }[] };
    expect(state.strategies).toMatchObject([{ id: 'ema1', warmUp: [{ market: 'BTC_USDT', timeframe: '15m', want: 63, have: 0 }] }]);
    d.child.kill('SIGINT');
    expect((await d.exited).code).toBe(0);
  }, 120_000);
});

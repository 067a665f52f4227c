/**
 * Notifications from the real built paper daemon: an env file points the webhook and Telegram
 * at local fakes (the first webhook request gets a 503, the first Telegram one a 429 with
 * retry_after). The grid trades and a tight drawdown limit trips the kill switch, so fills and a
 * trading-state change to HALTED arrive at both receivers with the right fields, the webhook
 * bodies are signed, and neither the bot token nor the webhook secret appears in the daemon's
 * output (debug level).
 */
import { createHmac } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, isDecimalString } from '../../src/core/decimal.js';
import { daemonForTest, logLines, spawnDaemon, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';
import { startReceivers, type Receivers } from '../support/notify-receivers.js';

const WAIT = { timeoutMs: 45_000, everyMs: 250 };
const TOKEN = '987654321:AAE2e_secretBotToken-0123456789abcdef';
const HOOK_SECRET = 'e2e-webhook-signing-secret';

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 } },
  strategies: [
    { module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.05', orderAmount: '0.002', postOnly: false } },
  ],
  // A 1 % drawdown limit on a fast random walk: the kill switch trips within seconds.
  risk: { maxNotionalPerOrderQuote: '500', maxDrawdownPct: '1' },
  jobs: { reconcileCron: '* * * * * *', equityCheckCron: '* * * * * *' },
  paper: { seed: 7, balances: { USDT: '20000', BTC: '1' }, startPrices: { BTC_USDT: '60000' }, volatility: '0.002', volumePerStep: '1', priceStepMs: 100 },
  shutdown: { drainTimeoutMs: 5000 },
};

let rx: Receivers | null = null;
afterEach(async () => {
  await rx?.close();
  rx = null;
});

describe('notifications from the paper daemon', () => {
  it('sends fills and the halt to the webhook and Telegram, and never logs the token', async () => {
    rx = await startReceivers();
    const tgPath = `/bot${TOKEN}/sendMessage`;
    rx.script('/hook', { status: 503, json: {} });
    rx.script(tgPath, { status: 429, json: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } } });
    const dir = tempDir();
    const envFile = path.join(dir, 'notify.env');
    writeFileSync(
      envFile,
      [
        `NOTIFY_WEBHOOK_URL=${rx.url}/hook`,
        `NOTIFY_WEBHOOK_SECRET=${HOOK_SECRET}`,
        `NOTIFY_TELEGRAM_BOT_TOKEN=${TOKEN}`,
        'NOTIFY_TELEGRAM_CHAT_ID=-100777',
        `NOTIFY_TELEGRAM_BASE_URL=${rx.url}`,
        'NOTIFY_EVENTS=fills,trading_state,alerts',
        '',
      ].join('\n'),
    );
    chmodSync(envFile, 0o600);
    const running = daemonForTest({ ENV_FILE: envFile, BOT_CONFIG: writeConfig(config, dir), BOT_DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'debug' });
    const hook = (type: string) => (rx?.at('/hook') ?? []).filter((r) => r.json['type'] === type);
    const telegram = () => (rx?.at(tgPath) ?? []).map((r) => String(r.json['text']));

    const fill = await eventually(() => hook('fill')[0], 'a fill at the webhook', WAIT);
    expect(fill.json).toMatchObject({ type: 'fill', source: 'v4-bot paper', strategy: 'grid', market: 'BTC_USDT', feeAsset: 'USDT' });
    expect(['buy', 'sell']).toContain(fill.json['side']);
    for (const k of ['price', 'amount', 'quote', 'fee']) expect(isDecimalString(String(fill.json[k])), k).toBe(true);
    // The grid's orders are 0.002 each: a fill is at most that (a partial fill less).
    const amount = new Decimal(String(fill.json['amount']));
    expect(amount.gt(0) && amount.lte('0.002')).toBe(true);
    expect(new Decimal(String(fill.json['quote'])).eq(amount.mul(String(fill.json['price'])))).toBe(true);
    expect(Date.parse(String(fill.json['time']))).toBeGreaterThan(0);
    expect(fill.headers['x-v4bot-signature-256']).toBe(`sha256=${createHmac('sha256', HOOK_SECRET).update(fill.raw).digest('hex')}`);
    const tgFill = await eventually(() => telegram().find((t) => t.startsWith('[v4-bot paper] Fill grid BTC_USDT: ')), 'a fill at Telegram after its 429', WAIT);
    // The same fill, figure for figure, as one of the webhook's.
    const asText = (r: { json: Record<string, unknown> }): string =>
      `[v4-bot paper] Fill grid BTC_USDT: ${String(r.json['side'])} ${String(r.json['amount'])} @ ${String(r.json['price'])} (${String(r.json['role'])}, fee ${String(r.json['fee'])} USDT)`;
    await eventually(() => hook('fill').some((r) => asText(r) === tgFill), 'the Telegram fill among the webhook fills', WAIT);
    expect(rx.at(tgPath)[0]?.json['chat_id']).toBe('-100777');

    const halt = await eventually(() => hook('trading_state').find((r) => r.json['to'] === 'HALTED'), 'the halt at the webhook', WAIT);
    expect(halt.json).toMatchObject({ from: 'ACTIVE', to: 'HALTED' });
    expect(String(halt.json['reason'])).toContain('drawdown');
    await eventually(() => telegram().find((t) => t.includes('Trading state ACTIVE → HALTED')), 'the halt at Telegram', WAIT);

    // The request refused with 503 and the one refused with 429 were sent again, unchanged.
    const [refusedHook, ...laterHooks] = rx.at('/hook');
    expect(laterHooks.map((r) => r.raw)).toContain(refusedHook?.raw);
    const [refusedTg, ...laterTg] = rx.at(tgPath);
    expect(laterTg.map((r) => r.raw)).toContain(refusedTg?.raw);
    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
    const out = running.stdout() + running.stderr();
    expect(logLines(out).some((l) => l['msg'] === 'notifications on')).toBe(true);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(TOKEN.split(':')[1]);
    expect(out).not.toContain(HOOK_SECRET);
    expect(out).not.toContain(`${rx.url}/hook`);
    // Nor in any file the daemon wrote (store, WAL, lock): only the env file holds it.
    const written = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && path.join(f.parentPath, f.name) !== envFile);
    expect(written.length).toBeGreaterThan(1);
    for (const f of written) expect(readFileSync(path.join(f.parentPath, f.name)).includes(TOKEN), f.name).toBe(false);
  });

  it('an invalid notification URL stops the daemon with exit 2 naming the key, before any request', async () => {
    rx = await startReceivers();
    const dir = tempDir();
    const p = spawnDaemon({
      BOT_CONFIG: writeConfig(config, dir),
      BOT_DATA_DIR: path.join(dir, 'data'),
      NOTIFY_WEBHOOK_URL: `${rx.url}/hook`,
      NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN,
      NOTIFY_TELEGRAM_CHAT_ID: '-100777',
      NOTIFY_TELEGRAM_BASE_URL: 'api.telegram.org',
    });
    expect((await p.exited).code).toBe(2);
    expect(p.stderr()).toContain('NOTIFY_TELEGRAM_BASE_URL');
    expect(p.stdout() + p.stderr()).not.toContain(TOKEN);
    expect(rx.requests).toEqual([]);
  });
});

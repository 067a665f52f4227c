/**
 * The real sinks over HTTP against local fakes (webhook receiver, Telegram Bot API), retries on a
 * ManualClock: 5xx then success, 429 with `retry_after`, a receiver that never answers (timeout),
 * a permanent refusal, the HMAC signature, the event filter; and the bot token never in a log
 * line, even when the request fails with an error whose own message carries the URL.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Notifier, TelegramSink, WebhookSink, SIGNATURE_HEADER, type NotifyKind, type Sink } from '../../../src/notify/index.js';
import { eventually } from '../../support/eventually.js';
import { freePort } from '../../support/daemon-process.js';
import { fillEvent, notifyMetrics, recordingLogger } from '../../support/notify-fixtures.js';
import { startReceivers, type Receivers } from '../../support/notify-receivers.js';

const TOKEN = '123456789:AAH-secretTokenValue_0123456789abcdef';
const TG_PATH = `/bot${TOKEN}/sendMessage`;
const ALL: NotifyKind[] = ['fills', 'refusals', 'alerts', 'trading_state', 'quarantines', 'daily_summary'];

let rx: Receivers;
beforeEach(async () => {
  rx = await startReceivers();
});
afterEach(async () => {
  await rx.close();
});

function notifier(sinks: Sink[], events: NotifyKind[] = ALL) {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 1, 2, 3));
  const log = recordingLogger();
  const m = notifyMetrics();
  const n = new Notifier({
    clock,
    logger: log.logger,
    metrics: m.metrics,
    random: () => 0,
    sinks: sinks.map((sink) => ({ sink, events: new Set(events) })),
    refusalWindowMs: 60_000,
    policy: { timeoutMs: 5_000, baseMs: 1_000 },
  });
  const retried = (k: number) => eventually(async () => (await m.value('bot_notifications_retries_total', {})) >= k, `retry ${k} scheduled`);
  return { clock, log, m, n, retried };
}

const telegram = (baseUrl = rx.url) => new TelegramSink({ baseUrl, botToken: TOKEN, chatId: '-1001234', source: 'v4-bot paper' });

describe('webhook sink', () => {
  it('retries a 503, then delivers a signed JSON body', async () => {
    rx.script('/hook', { status: 503, json: {} });
    const secret = 'a-webhook-signing-secret';
    const { n, clock, retried } = notifier([new WebhookSink({ url: `${rx.url}/hook`, secret, source: 'v4-bot paper' })]);
    n.notify(fillEvent());
    await retried(1);
    expect(rx.at('/hook').length).toBe(1);
    await clock.advanceAsync(500, 50);
    const [first, second] = await eventually(() => (rx.at('/hook').length === 2 ? rx.at('/hook') : undefined), 'the retry');
    expect(second?.raw).toBe(first?.raw);
    expect(second?.json['id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers['content-type']).toBe('application/json');
    expect(second?.headers['x-v4bot-event']).toBe('fill');
    const expected = `sha256=${createHmac('sha256', secret).update(second?.raw ?? '').digest('hex')}`;
    expect(second?.headers[SIGNATURE_HEADER]).toBe(expected);
    expect(second?.json).toMatchObject({ type: 'fill', strategy: 'grid', price: '60000.123456789012345678', amount: '0.00000001', fee: '0.0000000012' });
  });

  it('times out a receiver that never answers and delivers on the retry', async () => {
    rx.script('/hook', { hang: true });
    const { n, clock, m, retried } = notifier([new WebhookSink({ url: `${rx.url}/hook`, secret: null, source: 's' })]);
    n.notify(fillEvent());
    await eventually(() => rx.at('/hook').length === 1, 'the hanging request');
    await clock.advanceAsync(5_000, 500);
    await retried(1);
    await clock.advanceAsync(500, 50);
    await eventually(async () => (await m.value('bot_notifications_sent_total', { sink: 'webhook' })) === 1, 'delivered on retry');
    expect(rx.at('/hook')[1]?.headers[SIGNATURE_HEADER]).toBeUndefined();
  });

  it('does not retry a 404 and sends only the configured kinds', async () => {
    rx.script('/hook', { status: 404, json: {} });
    const { n, m } = notifier([new WebhookSink({ url: `${rx.url}/hook`, secret: null, source: 's' })], ['alerts']);
    n.notify(fillEvent());
    n.notify({ type: 'alert', atMs: 0, kind: 'order_lost', subject: 'g-1', detail: 'lost' });
    n.notify({ type: 'alert', atMs: 0, kind: 'overfill', subject: 'g-2', detail: 'over' });
    await eventually(() => rx.at('/hook').length === 2, 'two alerts');
    await eventually(async () => (await m.value('bot_notifications_dropped_total', { reason: 'failed' })) === 1, 'the 404 counted');
    expect(rx.at('/hook').map((r) => r.json['type'])).toEqual(['alert', 'alert']);
  });
});

describe('per-sink event selection', () => {
  it('sends each sink only its kinds', async () => {
    const clock = new ManualClock(0);
    const n = new Notifier({
      clock,
      logger: recordingLogger().logger,
      metrics: notifyMetrics().metrics,
      random: () => 0,
      sinks: [
        { sink: new WebhookSink({ url: `${rx.url}/hook`, secret: null, source: 's' }), events: new Set<NotifyKind>(['fills', 'alerts']) },
        { sink: telegram(), events: new Set<NotifyKind>(['alerts']) },
      ],
      refusalWindowMs: 60_000,
    });
    expect(n.wants('fills')).toBe(true);
    expect(n.wants('refusals')).toBe(false);
    n.refused('grid', 'X', 'not sent anywhere');
    n.notify(fillEvent());
    n.notify({ type: 'alert', atMs: 0, kind: 'order_lost', subject: 'g-1', detail: 'lost' });
    await eventually(() => rx.at('/hook').length === 2 && rx.at(TG_PATH).length === 1, 'fill and alert to the webhook, the alert alone to Telegram');
    expect(rx.at('/hook').map((r) => r.json['type'])).toEqual(['fill', 'alert']);
    expect(String(rx.at(TG_PATH)[0]?.json['text'])).toContain('ALERT order_lost');
    await n.close(0);
    expect(clock.pendingCount).toBe(0);
  });
});

describe('Telegram sink', () => {
  it('posts to /bot<token>/sendMessage and waits out a 429 retry_after on the clock', async () => {
    rx.script(TG_PATH, { status: 429, json: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } } });
    const { n, clock, retried } = notifier([telegram()]);
    n.notify(fillEvent());
    await retried(1);
    await clock.advanceAsync(2_999, 100);
    expect(rx.at(TG_PATH).length).toBe(1);
    await clock.advanceAsync(1, 1);
    const req = await eventually(() => rx.at(TG_PATH)[1], 'the retry after 3 s');
    expect(req.json).toEqual({
      chat_id: '-1001234',
      text: '[v4-bot paper] Fill grid BTC_USDT: buy 0.00000001 @ 60000.123456789012345678 (maker, fee 0.0000000012 USDT)',
      disable_web_page_preview: true,
    });
  });

  it('a refusal is not retried; its description is logged without the token', async () => {
    rx.script(TG_PATH, { status: 401, json: { ok: false, error_code: 401, description: `Unauthorized: bot${TOKEN} revoked` } });
    const { n, log, m } = notifier([telegram()]);
    n.notify(fillEvent());
    await eventually(async () => (await m.value('bot_notifications_dropped_total', { reason: 'failed' })) === 1, 'refusal counted');
    const text = log.lines.join('');
    expect(text).toContain('HTTP 401: Unauthorized');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TOKEN.split(':')[1]);
  });
});

describe('the bot token never reaches a log line', () => {
  it('not from a refused connection, nor from an error whose own message holds the URL', async () => {
    // The premise: fetch puts the URL, token included, into this error's message.
    const withCredentials = `http://user:pw@127.0.0.1:${await freePort()}`;
    const premise = await fetch(`${withCredentials}/bot${TOKEN}/sendMessage`).catch((err: unknown) => String((err as Error).message));
    expect(String(premise)).toContain(TOKEN);

    const closed = `http://127.0.0.1:${await freePort()}`;
    const { n, log, clock, retried } = notifier([telegram(withCredentials), telegram(closed)]);
    n.notify(fillEvent());
    n.notify({ type: 'trading_state', atMs: 0, from: 'ACTIVE', to: 'HALTED', reason: 'test' });
    await retried(2);
    for (let i = 0; i < 8; i++) await clock.advanceAsync(60_000, 5_000);
    await eventually(() => log.lines.filter((l) => l.includes('not delivered')).length >= 2, 'both sinks gave up on the first event');
    const text = log.lines.join('');
    expect(text).toContain('TypeError');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TOKEN.split(':')[1]);
    expect(text).not.toContain('/bot');
    await n.close(0);
  });
});

describe('a failed delivery says why at once', () => {
  it('a closed port: the first failure logs ECONNREFUSED at warn, without the URL, host:port or token', async () => {
    const port = await freePort();
    const hookToken = 'hook-path-token-7f3a9c';
    const url = `http://127.0.0.1:${port}/hooks/${hookToken}`;
    const { n, log } = notifier([new WebhookSink({ url, secret: null, source: 's' }), telegram(`http://127.0.0.1:${port}`)]);
    n.notify(fillEvent());
    // No clock advance: the first attempt of each sink, not the last one minutes later.
    const warned = await eventually(() => {
      const lines = log.lines.filter((l) => (JSON.parse(l) as { level: number }).level === 40 && l.includes('ECONNREFUSED'));
      return lines.length >= 2 ? lines : undefined;
    }, 'a warning per sink naming the cause');
    expect(warned.map((l) => (JSON.parse(l) as { sink: string }).sink).sort()).toEqual(['telegram', 'webhook']);
    expect(warned[0]).toContain('notification failed (TypeError (ECONNREFUSED)); retrying');
    const text = log.lines.join('');
    for (const secret of [url, `127.0.0.1:${port}`, hookToken, TOKEN, TOKEN.split(':')[1] as string, '/bot']) expect(text).not.toContain(secret);
    await n.close(0);
  });

  it('a timeout is named with its length', async () => {
    rx.script('/hook', { hang: true });
    const { n, clock, log } = notifier([new WebhookSink({ url: `${rx.url}/hook`, secret: null, source: 's' })]);
    n.notify(fillEvent());
    await eventually(() => rx.at('/hook').length === 1, 'the hanging request');
    await clock.advanceAsync(5_000, 500);
    await eventually(() => log.lines.some((l) => l.includes('"level":40') && l.includes('timeout (no answer within 5000 ms)')), 'the timeout named');
    await n.close(0);
  });
});

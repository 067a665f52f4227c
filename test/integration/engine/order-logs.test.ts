/**
 * Every order placement and cancel is one info line naming the strategy, clientOrderId, market,
 * side, price and amount (a cancel also its reason); a venue refusal is a warning.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { createLogger } from '../../../src/observability/logger.js';
import { buildEngine, type EngineParts } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { closeAfterTest } from '../../support/test-scope.js';

const d = (s: string) => new Decimal(s);

function setUp(): { e: EngineParts; g: FakeGateway; lines: () => Record<string, unknown>[] } {
  const out: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk.toString());
      cb();
    },
  });
  const dir = tempDir();
  const g = new FakeGateway();
  const e = buildEngine(dir, g, new ManualClock(1_700_000_000_000), { logger: createLogger({ level: 'info', destination }) });
  closeAfterTest(e.store);
  return { e, g, lines: () => out.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('order log lines', () => {
  it('logs each placement and each cancel (with its reason) at info', async () => {
    const { e, lines } = setUp();
    const [a, b] = await e.orders.placeLimitOrders('grid', [
      { market: 'BTC_USDT', side: 'buy', amount: d('0.5'), price: d('100.25') },
      { market: 'BTC_USDT', side: 'sell', amount: d('0.2'), price: d('110.5') },
    ]);
    const placed = lines().filter((l) => l['msg'] === 'order placed');
    expect(placed).toEqual([
      expect.objectContaining({ level: 30, strategy: 'grid', clientOrderId: a?.clientOrderId, market: 'BTC_USDT', side: 'buy', price: '100.25', amount: '0.5', state: 'OPEN' }),
      expect.objectContaining({ level: 30, strategy: 'grid', clientOrderId: b?.clientOrderId, market: 'BTC_USDT', side: 'sell', price: '110.5', amount: '0.2', state: 'OPEN' }),
    ]);
    await e.orders.cancelOrder('grid', a?.clientOrderId ?? '');
    await e.orders.cancelAll('grid', 'BTC_USDT', 'stop: shutdown.cancelOwnOrdersOnStop');
    const cancels = lines().filter((l) => l['msg'] === 'order cancel');
    expect(cancels).toEqual([
      expect.objectContaining({ level: 30, clientOrderId: a?.clientOrderId, side: 'buy', price: '100.25', amount: '0.5', reason: 'strategy intent', outcome: 'cancelled' }),
      expect.objectContaining({ level: 30, clientOrderId: b?.clientOrderId, reason: 'stop: shutdown.cancelOwnOrdersOnStop', outcome: 'cancelled' }),
    ]);
  });

  it('logs a venue refusal as a warning with its code', async () => {
    const { e, g, lines } = setUp();
    g.place = () => 'reject';
    await e.orders.placeLimitOrders('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('0.5'), price: d('100') }]);
    expect(lines().filter((l) => l['msg'] === 'order not placed')).toEqual([
      expect.objectContaining({ level: 40, strategy: 'grid', market: 'BTC_USDT', side: 'buy', outcome: 'rejected' }),
    ]);
  });
});

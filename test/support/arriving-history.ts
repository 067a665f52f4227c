/**
 * A venue history where new deals (with times up to `latenessSec` in the past) arrive between
 * page requests: the case that makes newest-first paging repeat deals (docs/failure-modes.md #11).
 */
import type { ManualClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import type { ExecutedHistoryQuery, Fill } from '../../src/model/fills.js';
import { FakeGateway } from './fake-gateway.js';

export class ArrivingHistory extends FakeGateway {
  all: Fill[] = [];
  /** Deals arriving after the n-th request from now on (each once, so a scan always ends). */
  arrivals: number[] = [];
  private id = 1;
  private call = 0;

  constructor(
    private readonly clock: ManualClock,
    private readonly latenessSec: number,
  ) {
    super();
  }

  add(n: number, backSec: number): void {
    for (let i = 0; i < n; i++) {
      const t = this.clock.now() - backSec * 1000 - i;
      const amount = new Decimal('0.001');
      const dealId = this.id++;
      const price = new Decimal(this.id);
      const f: Fill = { dealId, orderId: 9, clientOrderId: '', market: 'BTC_USDT', side: 'buy', role: 'taker', timeMs: t, amount, price, quote: amount.mul(price), fee: new Decimal(0) };
      this.all.push({ ...f, feeAsset: 'USDT' });
    }
    this.all.sort((a, b) => b.timeMs - a.timeMs || b.dealId - a.dealId);
  }

  resetCalls(): void {
    this.call = 0;
  }

  override async executedHistory(q: ExecutedHistoryQuery = {}): Promise<Fill[]> {
    const from = q.startDate === undefined ? -Infinity : q.startDate * 1000;
    const to = q.endDate === undefined ? Infinity : (q.endDate + 1) * 1000;
    const list = this.all.filter((d) => d.timeMs >= from && d.timeMs < to);
    const page = list.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 50));
    const n = this.arrivals[this.call++] ?? 0;
    this.add(n, Math.min(this.latenessSec, n % (this.latenessSec + 1)));
    return page;
  }
}

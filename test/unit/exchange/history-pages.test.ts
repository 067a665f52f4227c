import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { ExecutedHistoryQuery, Fill, FillPage } from '../../../src/model/fills.js';
import { historyPages, secondsWindow } from '../../../src/exchange/history-pages.js';
import { ArrivingHistory } from '../../support/arriving-history.js';

async function collect(pages: AsyncIterable<FillPage>): Promise<{ fills: Fill[]; pages: number; repeated: number }> {
  const out = { fills: [] as Fill[], pages: 0, repeated: 0 };
  for await (const p of pages) {
    out.pages++;
    out.fills.push(...p.fills);
    out.repeated += p.repeated;
  }
  return out;
}

const pageSizes = fc.integer({ min: 1, max: 100 });

describe('executed-history paging', () => {
  it('property: a single scan with arrivals between pages yields every pre-existing deal, each once', async () => {
    await fc.assert(
      fc.asyncProperty(pageSizes, fc.integer({ min: 0, max: 400 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 10 }), async (pageSize, initial, arrivals) => {
        const clock = new ManualClock(1_700_000_000_000);
        const h = new ArrivingHistory(clock, 100);
        h.add(initial, 0);
        clock.advance(1000);
        const before = new Set(h.all.map((d) => d.dealId));
        h.arrivals = arrivals;
        const r = await collect(historyPages((q) => h.executedHistory(q), { toMs: clock.now() }, { pageSize }));
        const ids = r.fills.map((d) => d.dealId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of before) expect(ids).toContain(id);
      }),
      { numRuns: 60 },
    );
  });

  it('asks the venue for the whole seconds around the range, with a fixed anchor and growing offsets', async () => {
    const queries: ExecutedHistoryQuery[] = [];
    const fetch = async (q: ExecutedHistoryQuery): Promise<Fill[]> => {
      queries.push(q);
      return q.offset === 0 ? Array.from({ length: 2 }, (_, i) => ({ dealId: i + 1 }) as Fill) : [];
    };
    const r = await collect(historyPages(fetch, { fromMs: 1_700_000_000_999, toMs: 1_700_000_100_500 }, { pageSize: 2 }));
    expect(r).toMatchObject({ pages: 2, repeated: 0 });
    expect(queries).toEqual([
      { startDate: 1_700_000_000, endDate: 1_700_000_100, offset: 0, limit: 2 },
      { startDate: 1_700_000_000, endDate: 1_700_000_100, offset: 2, limit: 2 },
    ]);
    expect(secondsWindow({ toMs: 999 })).toEqual({ endDate: 0 });
  });

  it('refuses a page size the venue does not serve, before any request', async () => {
    let requests = 0;
    const pages = historyPages(async () => [requests++] as unknown as Fill[], { toMs: 0 }, { pageSize: 101 });
    await expect(collect(pages)).rejects.toThrow(RangeError);
    expect(requests).toBe(0);
  });
});

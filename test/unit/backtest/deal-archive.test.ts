/**
 * The venue's older deals on disk (src/backtest/deal-archive.ts, Account.archiveBefore): over a
 * long run of scans an account with an archive holds at most a batch of deals in memory, and
 * answers every read (the gateway's scans, a scan from the start, the executed history of one
 * order, the whole history in order) exactly as an account holding every deal. venue-fills.json
 * written element by element is JSON.stringify's text.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec, Decimal } from '../../../src/core/decimal.js';
import { encodeDeal, SqliteDealArchive } from '../../../src/backtest/deal-archive.js';
import { writeFileInPieces } from '../../../src/backtest/file-writer.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { writeListFile } from '../../../src/backtest/result-file.js';
import { truthFillsOf } from '../../../src/backtest/truth-fills.js';
import type { Fill, FillRange } from '../../../src/model/fills.js';
import type { ExchangeGateway } from '../../../src/exchange/gateway.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { readDeal } from '../../../src/simulator/persist/codec.js';
import { encode, Fields } from '../../../src/simulator/persist/fields.js';
import { Prng } from '../../../src/simulator/prng.js';
import type { Deal } from '../../../src/simulator/types.js';
import { Venue } from '../../../src/simulator/venue.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const T0 = 1_700_000_000_000;
const BATCH = 40;

function deal(id: number, timeMs: number): Deal {
  const amount = dec('0.00123').mul(id);
  const price = dec('60000.5').plus(id);
  // Orders with several deals over time, and deals without a clientOrderId.
  const cid = id % 5 === 0 ? '' : `grid1-${id % 37}`;
  return { id, orderId: 1000 + (id % 37), clientOrderId: cid, market: 'BTC_USDT', side: id % 3 === 0 ? 'sell' : 'buy',
    role: id % 2 === 0 ? 1 : 2, amount, price, deal: amount.mul(price), fee: dec('0.000001').mul(id), feeAsset: 'USDT', timeMs };
}

async function read(gateway: ExchangeGateway, range: FillRange): Promise<Fill[]> {
  const out: Fill[] = [];
  for await (const page of gateway.fills(range)) out.push(...page.fills);
  return out;
}

function setUp(): { held: ReturnType<typeof side>; archived: ReturnType<typeof side>; archive: SqliteDealArchive } {
  const clock = new ManualClock(T0);
  const venue = new Venue(clock, 7, defaultMarkets(), 60_000);
  const archive = closeAfterTest(new SqliteDealArchive());
  const held = side(venue, 'held', undefined);
  const archived = side(venue, 'archived', archive);
  return { held, archived, archive };
}

function side(venue: Venue, apiKey: string, archive: SqliteDealArchive | undefined) {
  const account = venue.addAccount({ apiKey, apiSecret: 's', balances: { USDT: '1000' } });
  if (archive !== undefined) account.useArchive(archive);
  const api = inProcessApi(venue, account);
  const options = archive === undefined ? {} : { archive: { batch: BATCH, behindMs: 60_000 } };
  return { account, api, gateway: inProcessGateway(api, account, { historyPageSize: 7, ...options }) };
}

describe('deals archived on disk', () => {
  it('hold at most a batch in memory over a long run, and every read answers as with every deal held', async () => {
    const { held, archived, archive } = setUp();
    let id = 0;
    let most = 0;
    // 600 scans a minute apart, each of the last 5 min (as the reconciler's overlap), 0-3 deals a minute.
    for (let step = 1; step <= 600; step++) {
      const toMs = T0 + step * 60_000;
      for (let k = 0; k < step % 4; k++) {
        const d = deal(++id, toMs - 30_000 + k * 1000);
        held.account.deals.push(d);
        archived.account.deals.push({ ...d });
      }
      const range = { fromMs: toMs - 300_000, toMs };
      expect(await read(archived.gateway, range)).toEqual(await read(held.gateway, range));
      most = Math.max(most, archived.account.deals.length);
    }
    expect(id).toBe(900);
    // A batch, plus what the last minute and a scan's reach add before the next move.
    expect(most).toBeLessThan(BATCH + 20);
    expect(archive.count).toBeGreaterThan(800);
    const all = { fromMs: T0, toMs: T0 + 601 * 60_000 };
    expect(await read(archived.gateway, all)).toEqual(await read(held.gateway, all));
    expect(await read(archived.gateway, { toMs: all.toMs })).toEqual(await read(held.gateway, { toMs: all.toMs }));
    for (const n of [1, 2, 17, 36]) {
      const order = { market: 'BTC_USDT', clientOrderId: `grid1-${n}` };
      const fills = await archived.gateway.fillsOfOrder(order);
      expect(fills.length).toBeGreaterThan(15);
      expect(fills).toEqual(await held.gateway.fillsOfOrder(order));
    }
    const query = { market: 'BTC_USDT', startDate: Math.floor((T0 + 100 * 60_000) / 1000), endDate: Math.floor((T0 + 130 * 60_000) / 1000), limit: 100 };
    expect(await archived.api.executedHistory(query)).toEqual(await held.api.executedHistory(query));
    expect([...archived.account.allDeals()]).toEqual(held.account.deals);
  });

  it('moves nothing without a batch held or for an instant at or before the last move', () => {
    const { archived, archive } = setUp();
    for (let i = 1; i <= 10; i++) archived.account.deals.push(deal(i, T0 + i * 1000));
    archived.account.archiveBefore(T0 + 5500);
    expect(archive.count).toBe(5);
    expect(archived.account.deals.map((d) => d.id)).toEqual([6, 7, 8, 9, 10]);
    archived.account.archiveBefore(T0 + 5000);
    expect(archive.count).toBe(5);
    expect(archived.account.dealsReaching(undefined, T0 + 5500).map((d) => d.id)).toEqual([6, 7, 8, 9, 10]);
    expect(archived.account.dealsReaching(undefined, T0 + 3000).map((d) => d.id)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(archived.account.dealsReaching('grid1-2', undefined).map((d) => d.id)).toEqual([2, 6, 7, 8, 9, 10]);
  });
});

describe("an archived deal's row text", () => {
  it('reads back as the deal, as the persistence encoding does, for decimals of any magnitude', () => {
    const rng = new Prng(5);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
    const decimal = (): Decimal => {
      const digits = String(Math.floor(rng.next() * 1e9));
      return new Decimal(`${pick(['', '-'])}${digits}e${Math.floor(rng.next() * 60) - 40}`);
    };
    for (let i = 0; i < 500; i++) {
      const d: Deal = {
        id: Math.floor(rng.next() * 1e12), orderId: Math.floor(rng.next() * 1e9), clientOrderId: pick(['', 'grid1-7', 'a"\n\\b', 'é€']),
        market: pick(['BTC_USDT', 'BTC_PERP']), side: pick(['buy', 'sell'] as const), role: pick([1, 2] as const),
        amount: decimal(), price: decimal(), deal: pick([decimal(), dec('0')]), fee: decimal(), feeAsset: pick(['USDT', 'BTC', '']), timeMs: T0 + i,
      };
      const back = readDeal(Fields.parse('deal', encodeDeal(d)));
      expect(back).toEqual(readDeal(Fields.parse('deal', encode(d))));
      expect(encodeDeal(d)).toBe(encode(d));
      for (const k of ['amount', 'price', 'deal', 'fee'] as const) expect(back[k].eq(d[k])).toBe(true);
    }
  });
});

describe('the venue fills of archived deals', () => {
  it('are read from their stored text as from the parsed deals, in order, the held deals after them', () => {
    const { held, archived, archive } = setUp();
    // Decimals of every form toFixed prints: zero, tiny, huge, negative, trailing zeros cut.
    const odd = ['0', '0.000000000000000001', '123456789012345678901234.5', '-0.0000021', '7.50000', '60000'];
    for (let i = 1; i <= 300; i++) {
      const d = deal(i, T0 + i * 1000);
      const x = { ...d, amount: dec(odd[i % odd.length] as string).abs().plus(i), fee: dec(odd[(i * 7) % odd.length] as string).mul(i % 4),
        price: dec(odd[(i * 5) % odd.length] as string).plus('0.125'), clientOrderId: i % 11 === 0 ? `grid1-"\\\u00e9${i}` : d.clientOrderId };
      held.account.deals.push(x);
      archived.account.deals.push({ ...x });
    }
    archived.account.archiveBefore(T0 + 211_500);
    expect(archived.account.deals.length).toBe(89);
    const want = [...truthFillsOf({ account: held.account })];
    expect(want.length).toBe(300);
    expect([...truthFillsOf({ account: archived.account, archivedDeals: () => archive.storedInOrder() })]).toEqual(want);
  });
});

describe('venue-fills.json in pieces', () => {
  it('is JSON.stringify(list, null, 2) and a newline, empty or not', () => {
    const dir = tempDir();
    const rows = [1, 2, 3].map((i) => ({ dealId: i, timeMs: T0 + i, price: '60000.5', clientOrderId: i === 2 ? 'a"\n\\b' : `grid1-${i}` }));
    for (const list of [[], rows.slice(0, 1), rows]) {
      const file = path.join(dir, 'venue-fills.json');
      writeFileInPieces(file, (w) => writeListFile(w, list));
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(list, null, 2)}\n`);
    }
  });
});

/**
 * The venue of a chaos run: the simulator as a standalone HTTP venue in this process (the daemon
 * reaches it over loopback like any live venue), its two BTC markets on one price path that only
 * wanders a little by itself (the scenario moves it), and its admin routes spoken over HTTP.
 */
import { SystemClock } from '../../src/core/clock.js';
import { defaultMarkets, linkedMarkets, startSimulator, type Bracket, type FaultOptions, type SettleResult, type SimulatorHandle, type Truth } from '../../src/simulator/index.js';

/** 10 % of write replies dropped after the venue applied them; the listing answers slowly. */
export function chaosFaults(on: boolean): FaultOptions {
  if (!on) return {};
  const drop = { dropAfterApply: { rate: 0.1, mode: 'reset' as const } };
  // A slow listing widens the gap between the history scan and the listing that a protective
  // leg can execute in (the race of issue 9, part 2); it happens without it, only more rarely.
  const slow = { latencyMs: 150 };
  return { '/api/v4/order/bulk': drop, '/api/v4/order/collateral/limit': drop, '/api/v4/order/cancel': drop, '/api/v4/orders/conditional': slow, '/api/v4/conditional-orders': slow };
}

export async function startChaosVenue(seed: number, faults: boolean): Promise<SimulatorHandle> {
  const markets = linkedMarkets(defaultMarkets().filter((m) => m.name.startsWith('BTC_'))).map((m) => ({ ...m, volatility: '0.0001' }));
  return startSimulator({
    clock: new SystemClock(),
    seed,
    admin: true,
    stepMs: 200,
    markets,
    defaultBalances: { USDT: '100000', BTC: '1' },
    faults: chaosFaults(faults),
  });
}

/** The admin routes over HTTP (the same calls work against `npm run sim -- --admin`). */
export class VenueAdmin {
  constructor(private readonly baseUrl: string) {}

  private async call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/_sim/${route}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as T & { error?: string };
    if (res.status !== 200) throw new Error(`/_sim/${route}: ${res.status} ${json.error ?? ''}`);
    return json;
  }

  async price(market: string): Promise<string> {
    const r = await this.call<{ prices: Record<string, string> }>('GET', 'markets');
    const p = r.prices[market];
    if (p === undefined) throw new Error(`no price for ${market}`);
    return p;
  }

  setPrices(prices: Record<string, string>): Promise<unknown> {
    return this.call('POST', 'prices', { prices });
  }

  settle(opts: { market?: string; flatten?: boolean } = {}): Promise<SettleResult> {
    return this.call('POST', 'settle', opts);
  }

  cancelOco(ocoId: number): Promise<unknown> {
    return this.call('POST', 'oco/cancel', { ocoId });
  }

  async brackets(): Promise<Bracket[]> {
    return (await this.call<{ brackets: Bracket[] }>('GET', 'brackets')).brackets;
  }

  truth(): Promise<Truth> {
    return this.call('GET', 'truth');
  }
}

/** Every fill up to `toMs` through the gateway, held in memory (the benchmarks' baseline). */
import type { ApiClient } from '../../src/exchange/api-client.js';
import type { Fill } from '../../src/model/fills.js';
import { createVenueGateway } from '../../src/exchange/venue-gateway.js';

export async function fetchAllFills(client: ApiClient, toMs: number): Promise<{ deals: Fill[]; pages: number }> {
  const deals: Fill[] = [];
  let pages = 0;
  for await (const page of createVenueGateway(client).fills({ toMs })) {
    pages++;
    deals.push(...page.fills);
  }
  return { deals, pages };
}

/** What a route handler gets and returns. */
import type { Account } from '../account.js';
import type { Venue } from '../venue.js';
import type { SimulatorOptions } from '../options.js';

export interface RouteResult {
  status: number;
  body: unknown;
}

export interface RouteContext {
  venue: Venue;
  options: Pick<SimulatorOptions, 'flatHistoryWithMarket'>;
}

export type PrivateHandler = (ctx: RouteContext, account: Account, body: Record<string, unknown>) => RouteResult;

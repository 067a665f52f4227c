/** The operations behind the scenario admin routes (admin-scenarios.ts), bound to one venue. Each first catches the market up. */
import { isDecimalString } from '../core/decimal.js';
import type { Account } from './account.js';
import type { ScenarioAdminOps } from './admin-scenarios.js';
import { bracketsOf } from './brackets.js';
import { cancelOco, settleAccount } from './settle.js';
import type { Venue } from './venue.js';

export function scenarioAdminOps(venue: Venue, defaultApiKey: string): ScenarioAdminOps {
  const account = (apiKey: string | undefined): Account => {
    venue.catchUp();
    const a = venue.accounts.get(apiKey ?? defaultApiKey);
    if (a === undefined) throw new RangeError('unknown apiKey');
    return a;
  };
  return {
    setPrices(prices) {
      // Check all first: a refused request must leave every price as it was.
      for (const [market, price] of Object.entries(prices)) {
        venue.requireMarket(market);
        if (!isDecimalString(price) || price.startsWith('-')) throw new RangeError(`price of ${market} must be a positive decimal string`);
      }
      for (const [market, price] of Object.entries(prices)) venue.setPrice(market, price);
    },
    settle: (apiKey, opts) => settleAccount(venue, account(apiKey), opts),
    cancelOco: (apiKey, ocoId) => cancelOco(account(apiKey), ocoId, venue.nowMs()),
    brackets: (apiKey) => bracketsOf(account(apiKey)),
  };
}

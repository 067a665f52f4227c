/** The checks of the chaos suite, in report order. */
import { noUnexplainedBalance } from './balance-audit.js';
import { daemonNeverDied } from './daemon-runs.js';
import { noFalseDrawdownHalt } from './drawdown.js';
import { exitsOnlyReduce } from './exits.js';
import { fillsMatchDeals, marketSumsMatch, orderFilledMatch } from './fills.js';
import { legFillsToTrueParent } from './leg-attribution.js';
import { noFalseLegAlert } from './leg-alerts.js';
import { everyOrderJournaled, noDuplicatePlacement } from './orders.js';
import { positionWithinLimit } from './position-limit.js';
import type { Check } from './types.js';

export type { Check } from './types.js';

export const CHECKS: readonly Check[] = [
  fillsMatchDeals,
  marketSumsMatch,
  orderFilledMatch,
  noDuplicatePlacement,
  everyOrderJournaled,
  positionWithinLimit,
  exitsOnlyReduce,
  noFalseLegAlert,
  legFillsToTrueParent,
  daemonNeverDied,
  noFalseDrawdownHalt,
  noUnexplainedBalance,
];

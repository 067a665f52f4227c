/**
 * Where the run takes its metrics and its HTML report from: one place, so pointing the CLI at
 * other implementations is a change of this file only.
 */
export { computeMetrics, roundTrips, renderReport } from './pending-report.js';

/**
 * Where the run takes its metrics, round trips, series thinning and HTML report from: one place,
 * so the CLI's wiring to them is this file only.
 */
export { computeMetrics, roundTrips } from './metrics.js';
export { downsampleEquity, downsamplePrices } from './downsample.js';
export { renderReport, writeReport } from './report/index.js';
export { writeResultJson } from './result-file.js';
export { writeFileInPieces } from './file-writer.js';

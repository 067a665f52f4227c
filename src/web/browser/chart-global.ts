/**
 * The charting library as the pages see it: the standalone build (served or inlined before the
 * page's module) defines `window.LightweightCharts`; only its types are imported here.
 */
import type * as LightweightCharts from 'lightweight-charts';

export type ChartLibrary = typeof LightweightCharts;

/** The library, or null when its script did not load (the page then shows its tables only). */
export function chartLibrary(): ChartLibrary | null {
  return (window as unknown as { LightweightCharts?: ChartLibrary }).LightweightCharts ?? null;
}

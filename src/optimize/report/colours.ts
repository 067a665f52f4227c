/**
 * The study report's colours, in the embedded data for the page script and in the SVG scatters;
 * the browser test counts canvas pixels of exactly these colours to prove each chart painted.
 */
export const STUDY_COLOURS = {
  bestEquity: '#2962ff',
  oosEquity: '#00897b',
  point: 'rgba(123, 31, 162, 0.6)',
  best: '#d50000',
} as const;

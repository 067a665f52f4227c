/**
 * The report's series colours, shared by the page script and the browser test (which counts
 * pixels of exactly these colours per chart to prove each one was painted).
 */
export const REPORT_COLOURS = {
  equity: '#2962ff',
  hold: '#9e9e9e',
  drawdown: '#e65100',
  drawdownFill: 'rgba(230, 81, 0, 0.25)',
  price: '#7b1fa2',
  buy: '#00a152',
  sell: '#d50000',
} as const;

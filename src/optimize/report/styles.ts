/** The study report's stylesheet: the backtest report's, plus the flags, the scatters and the sortable table. */
import { STYLES as BACKTEST_STYLES } from '../../backtest/report/styles.js';

export const STUDY_STYLES = `${BACKTEST_STYLES}
section.flags { border: 2px solid #cf222e; background: #fff5f5; }
section.flags h2 { color: #cf222e; }
section.flags ul { margin: 0; padding-left: 20px; }
section.flags li { margin: 4px 0; }
section.flags-none { border-color: #1a7f37; }
.bad { color: #cf222e; }
td.error { white-space: normal; color: #cf222e; }
.columns { display: flex; flex-wrap: wrap; gap: 24px; }
.columns > div { flex: 1 1 320px; }
table.figures th { background: none; font-weight: 400; position: static; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable:hover { background: #eaeef2; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
.scatters { display: flex; flex-wrap: wrap; gap: 16px; }
figure.scatter-box { margin: 0; }
figcaption { font-weight: 600; font-size: 13px; margin: 0 0 4px; }
svg.scatter { background: #fff; font: 11px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; fill: #59636e; }
svg.scatter rect.plot { fill: none; stroke: #d0d7de; }
svg.scatter line.zero { stroke: #8c959f; stroke-dasharray: 3 3; }
`;

/** The dashboard's stylesheet (served as `/assets/dashboard.css`). */
export function dashboardStyle(): string {
  return `
:root { --bg: #0f1419; --panel: #171d24; --line: #2a323c; --text: #d8dee6; --dim: #8a96a3; --ok: #3fb950; --warn: #d29922; --bad: #f85149; --accent: #58a6ff; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); position: sticky; top: 0; z-index: 2; }
h1 { font-size: 16px; margin: 0; }
h2 { font-size: 13px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .04em; color: var(--dim); }
h3 { font-size: 12px; margin: 10px 0 4px; color: var(--dim); font-weight: 600; }
.mode { font-size: 11px; padding: 2px 6px; border-radius: 4px; background: #30363d; vertical-align: middle; }
body[data-mode="live"] .mode { background: var(--bad); color: #fff; }
main { padding: 12px 16px; display: grid; gap: 12px; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; overflow-x: auto; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; align-items: start; }
.column { display: grid; gap: 12px; min-width: 0; }
@media (max-width: 1000px) { .row { grid-template-columns: 1fr; } }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { color: var(--dim); font-weight: 500; }
td.num, th.num { text-align: right; }
#actions td:last-child, #alerts td:last-child { white-space: normal; min-width: 200px; }
.chart { height: 220px; }
.chart.small { height: 110px; }
.candle-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 12px; }
.candle-panel { min-width: 0; }
.candle-head { display: flex; gap: 12px; align-items: center; margin-bottom: 4px; }
.chart.candles { height: 320px; }
.candle-source { color: var(--dim); }
.candle-legend { color: var(--dim); font-variant-numeric: tabular-nums; min-height: 1.4em; white-space: normal; }
button.tf { padding: 1px 7px; margin-right: 2px; }
button.tf.active { border-color: var(--accent); color: var(--accent); }
.figures { display: flex; gap: 18px; margin-bottom: 6px; }
.figures b { display: block; font-size: 15px; }
.ACTIVE { color: var(--ok); } .REDUCE_ONLY { color: var(--warn); } .HALTED { color: var(--bad); }
.buy { color: var(--ok); } .sell { color: var(--bad); }
.tag { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 11px; margin-right: 4px; background: #30363d; }
.tag.paused { background: var(--warn); color: #000; } .tag.quarantined { background: var(--bad); color: #fff; } .tag.running { background: #238636; color: #fff; }
.pos { color: var(--ok); } .neg { color: var(--bad); }
button { background: #21262d; color: var(--text); border: 1px solid var(--line); border-radius: 4px; padding: 3px 9px; cursor: pointer; font: inherit; }
button:hover { border-color: var(--accent); }
button.danger { border-color: #6e2a28; }
button.armed { background: var(--bad); color: #fff; }
#conn.up { color: var(--ok); } #conn.down { color: var(--bad); }
#updated, #trading-reason, .hint { color: var(--dim); }
#notice { padding: 0 16px; min-height: 0; }
#notice.show { padding: 8px 16px; background: #1f2a37; border-bottom: 1px solid var(--line); }
#notice.error { background: #3a1d1d; }
#login { padding: 8px 16px; background: #1f2a37; }
.meter { display: inline-block; width: 120px; height: 8px; background: #30363d; border-radius: 4px; position: relative; vertical-align: middle; margin-left: 6px; }
.meter i { position: absolute; left: 0; top: 0; bottom: 0; background: var(--accent); border-radius: 4px; }
.empty { color: var(--dim); font-style: italic; }
footer { padding: 4px 16px 16px; color: var(--dim); font-size: 12px; }
footer a { color: var(--accent); }
`;
}

/** The report's stylesheet, inlined into the page: system fonts only, nothing fetched. */
export const STYLES = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2328; background: #f6f8fa; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.sub { color: #59636e; margin: 0 0 16px; }
section { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 16px 20px; margin: 0 0 20px; }
.chart { width: 100%; height: 300px; position: relative; }
.chart.small { height: 200px; }
.legend { font-size: 12px; color: #59636e; margin: 4px 0 0; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 4px 0 12px; vertical-align: -1px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 4px 10px; border-bottom: 1px solid #eaeef2; text-align: left; white-space: nowrap; }
th { background: #f6f8fa; font-weight: 600; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
td.pos { color: #1a7f37; }
td.neg { color: #cf222e; }
tr.group td { background: #fafbfc; font-weight: 600; }
.scroll { max-height: 520px; overflow: auto; }
details > summary { cursor: pointer; font-weight: 600; margin: 4px 0 8px; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
.note { color: #59636e; font-size: 12px; }
footer { color: #59636e; font-size: 12px; }
`;

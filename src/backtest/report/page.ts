/**
 * The page around the report's parts. A Content-Security-Policy allows no request of any kind and
 * runs only the two scripts whose hashes it names (the charting library and the page module), so
 * nothing in the data could run or fetch even if it slipped past the escaping.
 */
import { createHash } from 'node:crypto';

export interface PageParts {
  title: string;
  body: string;
  styles: string;
  /** Embedded JSON, already escaped for a script element. */
  dataJson: string;
  /** Classic scripts (the charting library), run in order. */
  scripts: string[];
  /** The page's own script, an ES module importing nothing: it runs after the classic ones. */
  moduleScript: string;
}

function scriptHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

export function page(parts: PageParts): string {
  return pageLines(parts).join('\n');
}

/** The page as its lines (a part may hold several): written one by one, the page is never one string. */
export function pageLines(parts: PageParts): string[] {
  const csp = `default-src 'none'; script-src ${[...parts.scripts, parts.moduleScript].map(scriptHash).join(' ')}; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${parts.title}</title>`,
    `<style>${parts.styles}</style>`,
    '</head>',
    '<body>',
    parts.body,
    `<script type="application/json" id="report-data">${parts.dataJson}</script>`,
    ...parts.scripts.map((s) => `<script>${s}</script>`),
    `<script type="module">${parts.moduleScript}</script>`,
    '</body>',
    '</html>',
    '',
  ];
}

/**
 * The dashboard's DOM helpers. Every text is set with `textContent`, never parsed as HTML, so a
 * strategy id or an alert's detail cannot inject markup.
 */

/** The element with `id`; the page shell (src/web/dashboard/page.ts) has every id the script uses. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`dashboard: the page has no #${id}`);
  return found as T;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | null, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** A right-aligned figure; `exact` (the unrounded value) becomes its tooltip when it differs. */
export function num(text: string, cls = '', exact?: string | null): HTMLTableCellElement {
  const td = el('td', text, `num ${cls}`.trim());
  if (exact !== undefined && exact !== null && exact !== text) td.title = exact;
  return td;
}

export function row(cells: ReadonlyArray<HTMLElement | string>): HTMLTableRowElement {
  const tr = el('tr');
  for (const c of cells) tr.appendChild(typeof c === 'string' ? el('td', c) : c);
  return tr;
}

/** Replaces the rows of table `id` with one per item, or one "empty" row saying `emptyText`. */
export function fill<T>(id: string, items: readonly T[], render: (item: T) => HTMLTableRowElement, emptyText = 'none'): void {
  const table = byId<HTMLTableElement>(id);
  const body = table.tBodies[0];
  if (body === undefined) return;
  if (items.length === 0) {
    const td = el('td', emptyText, 'empty');
    td.colSpan = table.tHead?.rows[0]?.cells.length ?? 1;
    body.replaceChildren(row([td]));
    return;
  }
  body.replaceChildren(...items.map(render));
}

/** Label/value pairs as `<div>label<b>value</b></div>` blocks in the box `id`. */
export function figures(id: string, pairs: ReadonlyArray<readonly [string, string]>): HTMLElement {
  const box = byId(id);
  box.replaceChildren(
    ...pairs.map(([label, value]) => {
      const d = el('div', label);
      d.appendChild(el('b', value));
      return d;
    }),
  );
  return box;
}

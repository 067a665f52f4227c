/**
 * result.json written in pieces: byte for byte `JSON.stringify(result, null, 2)` and a newline,
 * with the fills and the round trips (the lists that grow with the run) written one element at a
 * time from any iteration, so the file is never one string in memory.
 */
import type { FileWriter } from './file-writer.js';
import type { BacktestFill, BacktestResult, BacktestTrade } from './result.js';

/** The result without its lists of fills and round trips. */
export type ResultHead = Omit<BacktestResult, 'fills' | 'trades'>;

/** How JSON.stringify(…, null, 2) ends an object whose last two members are these empty lists. */
const EMPTY_TAIL = '\n  "fills": [],\n  "trades": []\n}';

export function writeResultJson(w: FileWriter, head: ResultHead, fills: Iterable<BacktestFill>, trades: Iterable<BacktestTrade>): void {
  // The two lists are the last members: the head with them empty is the file up to them (a whole
  // result given as the head keeps its members' order; its lists are replaced by empty ones).
  const text = JSON.stringify({ ...head, fills: [], trades: [] }, null, 2);
  if (!text.endsWith(EMPTY_TAIL)) throw new Error('result.json: the fills and trades are not the last members of the result');
  w.write(text.slice(0, text.length - EMPTY_TAIL.length));
  w.write('\n  "fills": ');
  writeList(w, fills);
  w.write(',\n  "trades": ');
  writeList(w, trades);
  w.write('\n}\n');
}

/**
 * venue-fills.json written in pieces: byte for byte `JSON.stringify(list, null, 2)` and a newline,
 * one element at a time from any iteration.
 */
export function writeListFile(w: FileWriter, items: Iterable<object>): void {
  writeList(w, items, '');
  w.write('\n');
}

/** A list nested `outer` deep (a member of the top-level object by default): `[]` when empty. */
function writeList(w: FileWriter, items: Iterable<object>, outer = '  '): void {
  const inner = `\n${outer}  `;
  let first = true;
  for (const item of items) {
    w.write(first ? `[${inner}` : `,${inner}`);
    // No raw newline can sit inside a JSON string: every one here is a line break of the layout.
    w.write(JSON.stringify(item, null, 2).replace(/\n/g, inner));
    first = false;
  }
  w.write(first ? '[]' : `\n${outer}]`);
}

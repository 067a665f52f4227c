/**
 * result.json written in pieces: byte for byte `JSON.stringify(result, null, 2)` and a newline,
 * with the fills and the round trips (the lists that grow with the run) written one element at a
 * time from any iteration, or copied from files their lists were written to earlier, so the file
 * is never one string in memory.
 */
import type { FileWriter } from './file-writer.js';
import type { BacktestFill, BacktestResult, BacktestTrade } from './result.js';

/** The result without its lists of fills and round trips. */
export type ResultHead = Omit<BacktestResult, 'fills' | 'trades'>;

/** How JSON.stringify(…, null, 2) ends an object whose last two members are these empty lists. */
const EMPTY_TAIL = '\n  "fills": [],\n  "trades": []\n}';

/** The result's text up to its lists (the head given as a whole result keeps its members' order; its lists are left out). */
function writeHead(w: FileWriter, head: ResultHead): void {
  const text = JSON.stringify({ ...head, fills: [], trades: [] }, null, 2);
  if (!text.endsWith(EMPTY_TAIL)) throw new Error('result.json: the fills and trades are not the last members of the result');
  w.write(text.slice(0, text.length - EMPTY_TAIL.length));
}

export function writeResultJson(w: FileWriter, head: ResultHead, fills: Iterable<BacktestFill>, trades: Iterable<BacktestTrade>): void {
  writeHead(w, head);
  w.write('\n  "fills": ');
  writeList(w, fills);
  w.write(',\n  "trades": ');
  writeList(w, trades);
  w.write('\n}\n');
}

/** writeResultJson with each list's text (a ListWriter's, member-deep) copied from a file. */
export function writeResultJsonOfFiles(w: FileWriter, head: ResultHead, fillsFile: string, tradesFile: string): void {
  writeHead(w, head);
  w.write('\n  "fills": ');
  w.copyFrom(fillsFile);
  w.write(',\n  "trades": ');
  w.copyFrom(tradesFile);
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
  const list = new ListWriter(w, outer);
  for (const item of items) list.add(item);
  list.end();
}

/** A list's text as JSON.stringify(…, null, 2) lays it out `outer` deep, written one element at a time. */
export class ListWriter {
  private readonly inner: string;
  private first = true;

  constructor(
    private readonly w: FileWriter,
    private readonly outer = '  ',
  ) {
    this.inner = `\n${outer}  `;
  }

  add(item: object): void {
    this.w.write(this.first ? `[${this.inner}` : `,${this.inner}`);
    this.w.write(elementText(item, this.outer));
    this.first = false;
  }

  end(): void {
    this.w.write(this.first ? '[]' : `\n${this.outer}]`);
  }
}

/**
 * JSON.stringify(item, null, 2) as an element of a list `outer` deep: every line break of the
 * layout (no raw newline can sit inside a JSON string) followed by the list's inner indent. An
 * object of plain values (the fills and trades) is laid out by JSON.stringify at the final indent
 * at once: only its closing brace, at the margin there, is moved in.
 */
export function elementText(item: object, outer: string): string {
  if (isFlat(item)) {
    const text = JSON.stringify(item, null, outer.length + 4);
    return text === '{}' ? text : `${text.slice(0, -1)}${outer}  }`;
  }
  return JSON.stringify(item, null, 2).replace(/\n/g, `\n${outer}  `);
}

/** A plain object whose members are strings, numbers, booleans, null or undefined (nothing nested, no toJSON). */
function isFlat(item: object): boolean {
  if (Array.isArray(item) || typeof (item as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const v of Object.values(item)) if (typeof v === 'object' && v !== null) return false;
  return true;
}

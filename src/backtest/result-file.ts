/**
 * result.json written in pieces: byte for byte `JSON.stringify(result, null, 2)` and a newline,
 * with the fills and the round trips (the lists that grow with the run) written a few hundred
 * elements at a time from any iteration, or copied from files their lists were written to earlier, so the file
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
 * a few hundred elements at a time from any iteration.
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

/** Elements laid out by one JSON.stringify call (a call per element cost a year's run about a second). */
const BATCH = 256;

/**
 * A list's text as JSON.stringify(…, null, 2) lays it out `outer` deep (two spaces a level),
 * written a batch of elements at a time: each batch is laid out by JSON.stringify itself, nested
 * in as many one-element arrays as the list is deep so that its elements take their final
 * indent, and the nesting's own brackets are cut off. An element's text does not depend on its
 * neighbours, so the batches joined by commas are the whole list's text.
 */
export class ListWriter {
  private readonly depth: number;
  /** What the nesting adds before and after the batch's elements. */
  private readonly head: number;
  private readonly tail: number;
  private batch: unknown[] = [];
  private first = true;

  constructor(
    private readonly w: FileWriter,
    private readonly outer = '  ',
  ) {
    if (!/^(?: {2})*$/.test(outer)) throw new Error(`list indent must be whole levels of two spaces, got ${JSON.stringify(outer)}`);
    this.depth = outer.length / 2;
    const empty = JSON.stringify(this.nested([]), null, 2);
    this.head = empty.indexOf('[]');
    this.tail = empty.length - this.head - 2;
  }

  add(item: object): void {
    this.batch.push(item);
    if (this.batch.length >= BATCH) this.flush();
  }

  end(): void {
    this.flush();
    this.w.write(this.first ? '[]' : `\n${this.outer}]`);
  }

  /** Writes the batch's elements: `[` or `,`, then each element after its line break and indent. */
  private flush(): void {
    if (this.batch.length === 0) return;
    const text = JSON.stringify(this.nested(this.batch), null, 2);
    // The batch's own `[` and `\n<outer>]` are cut too: the list's are written around all batches.
    this.w.write(this.first ? '[' : ',');
    this.w.write(text.slice(this.head + 1, text.length - this.tail - 1 - this.outer.length - 1));
    this.batch = [];
    this.first = false;
  }

  private nested(list: unknown[]): unknown {
    let out: unknown = list;
    for (let i = 0; i < this.depth; i++) out = [out];
    return out;
  }
}

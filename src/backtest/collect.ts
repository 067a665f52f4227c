/**
 * The result (result.ts) from a finished run: the bot's own fills as its store recorded them
 * (attributed to strategies by the engine), each strategy's book replayed over the price path,
 * the metrics of each and of the whole account, and the venue's own deals beside them (the
 * simulator's truth, to check the engine's view against).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Decimal } from '../core/decimal.js';
import { replayParsed, type Book, type BookSpec } from './ledger.js';
import { keptIndexes, keptNumberIndexes } from './downsample.js';
import { SteppedCurve } from './curve-steps.js';
import { EquityCurve, MetricsFold } from './metrics.js';
import { ROW_LIMIT } from './report/tables.js';
import type { BacktestFill, BacktestMetrics, BacktestResult, BacktestTrade, EquityPoint, PricePoint } from './result.js';
import { ListWriter, writeListFile, writeResultJsonOfFiles, type ResultHead } from './result-file.js';
import { writeFileInPieces } from './file-writer.js';
import { FillMarks } from './report/fill-marks.js';
import { writeReport, type ReportInput } from './report/index.js';
import { FifoFold, tradesOf, type ParsedFill } from './round-trips.js';
import { parsedFillsOf, resultFillsOf } from './stored-fills.js';
import { truthFillsOf, type TruthFill } from './truth-fills.js';
import type { RunState } from './run.js';
import type { DecimalColumn, Samples } from './samples.js';
import type { WarmUp } from './candle-input.js';

/** Points kept per series in the result (the report draws them; metrics use every step). */
const SERIES_MAX = 2000;

/** The account's book among the strategies' (no strategy id is empty). */
const TOTAL = '';

export interface ResultInputs {
  configFile: string;
  configSha256: string;
  prices: Array<{ file: string; sha256: string }>;
  fromMs: number;
  toMs: number;
  fillModel: Record<string, string>;
  /** When strategies declare candles: the span the input's first candles filled their windows. */
  warmUp?: WarmUp;
}

export type { TruthFill } from './truth-fills.js';

function flexEarnings(state: RunState): Decimal {
  let sum = new Decimal(0);
  for (const r of state.wired.store.flex.all()) if (r.actionType === 'DAILY_EARNING') sum = sum.plus(r.amount);
  return sum;
}

/** The venue's deals, oldest first, one at a time (the archived ones read from disk as stored). */
export function truthFillsInOrder(state: RunState): Generator<TruthFill> {
  return truthFillsOf(state.venue);
}

export function truthFills(state: RunState): TruthFill[] {
  return [...truthFillsInOrder(state)];
}

/** The account's curve: its figures from every sampled equity (each value built only where it can move them: curve-steps.ts). */
function accountCurve(samples: Samples): EquityCurve {
  const curve = new EquityCurve();
  const steps = new SteppedCurve(curve);
  steps.stretch({ valueAt: (i) => samples.equity.at(i), column: samples.equity, sign: 1 });
  for (let i = 0; i < samples.length; i++) steps.add(i, samples.timeAt(i));
  return curve;
}

/** A sampled column thinned for the report (downsample.ts), as the result's points. */
function thinned<T>(samples: Samples, column: DecimalColumn, point: (timeMs: number, value: string) => T): T[] {
  const numbers = column.numbers();
  const kept = numbers === undefined ? keptIndexes(column.length, SERIES_MAX, (i, j) => column.compare(i, j)) : keptNumberIndexes(numbers, SERIES_MAX);
  return kept.map((i) => point(samples.timeAt(i), column.at(i).toFixed()));
}

/** The run's fills as the result lists them, read from the store one at a time (time, then deal id). */
export function resultFills(state: RunState): Generator<BacktestFill> {
  return resultFillsOf(state.wired.store.fills.resultRowsInOrder());
}

/** Where the pass hands each fill and each closed trade as it reads them (the result's lists, the report's markers). */
export interface ListSink {
  fill(f: BacktestFill): void;
  trade(t: BacktestTrade): void;
}

/** What one pass over the fills gives besides the head: the report's first rows and the markets with fills. */
export interface ResultPass {
  head: ResultHead;
  /** Markets with at least one fill. */
  fillMarkets: Set<string>;
  /** The first fills and closed trades (the report lists at most ROW_LIMIT of each). */
  firstFills: BacktestFill[];
  firstTrades: BacktestTrade[];
}

interface Accounts {
  total: MetricsFold;
  own: Map<string, MetricsFold>;
}

/** Feeds one fill (and the trade it closes) to the total's and its strategy's figures; keeps the report's first rows. */
function feeder(pass: Omit<ResultPass, 'head'>, acc: Accounts, fifo: FifoFold, sink: ListSink | undefined): (p: ParsedFill) => void {
  return (p) => {
    const f = p.fill;
    sink?.fill(f);
    pass.fillMarkets.add(f.market);
    if (pass.firstFills.length < ROW_LIMIT) pass.firstFills.push(f);
    const own = acc.own.get(f.strategy);
    acc.total.addFill(f, p.fee);
    own?.addFill(f, p.fee);
    const closed = fifo.addParsed(p);
    if (closed === null) return;
    sink?.trade(closed.trade);
    for (const m of own === undefined ? [acc.total] : [acc.total, own]) {
      m.addGross(closed.gross);
      m.addTrade(closed.trade, closed.pnl);
    }
    if (pass.firstTrades.length < ROW_LIMIT) pass.firstTrades.push(closed.trade);
  };
}

/**
 * The result's figures in one pass over the store's fills (never all held): the account's and
 * every enabled strategy's books replayed over the samples together, the metrics folded fill by
 * fill. Figures equal to computeMetrics over the whole lists (the same sums in the same order).
 * `sink` gets every fill and closed trade of the result's lists, in their order.
 */
export function resultPass(state: RunState, inputs: ResultInputs, sink?: ListSink): ResultPass {
  const { store, b } = state.wired;
  // Counted in SQL: reading every order of a long run into records only to count them was the
  // result's largest allocation (a year holds hundreds of thousands of orders).
  const sentBy = store.orders.sentCounts();
  const sent = [...sentBy.values()].reduce((a, b) => a + b, 0);
  const { samples } = state;
  const startEquity = samples.length === 0 ? new Decimal(0) : samples.equity.at(0);
  const enabled = [...b.config.strategies].sort((x, y) => x.id.localeCompare(y.id)).filter((s) => s.enabled);
  const acc: Accounts = { total: new MetricsFold(), own: new Map(enabled.map((s) => [s.id, new MetricsFold()])) };
  const pass = { fillMarkets: new Set<string>(), firstFills: [], firstTrades: [] };
  // The account's own book is not valued per step: its curve is the sampled equity itself.
  const fifo = new FifoFold();
  // A strategy's open lots are its round trips' FIFO books (the same fills, the same FIFO): not kept twice.
  const own = enabled.map((s): [string, BookSpec] => [s.id, { start: s.budgetQuote, curve: true, lots: () => fifo.lotsOf(s.id) }]);
  const specs = new Map<string, BookSpec>([[TOTAL, { start: startEquity, curve: false }], ...own]);
  const keys = new Map(enabled.map((s) => [s.id, [TOTAL, s.id]]));
  const totalOnly = [TOTAL];
  const keysOf = (f: BacktestFill): readonly string[] => keys.get(f.strategy) ?? totalOnly;
  const books = replayParsed(parsedFillsOf(store.fills.resultRowsInOrder()), samples, specs, keysOf, feeder(pass, acc, fifo, sink));
  const span = { fromMs: inputs.fromMs, toMs: inputs.toMs };
  const totalBook = books.get(TOTAL) as Book;
  const total = acc.total.finish({
    equity: accountCurve(samples),
    flexEarnings: flexEarnings(state).toFixed(),
    unrealisedPnl: totalBook.unrealisedPnl.toFixed(),
    orders: sent,
    positionSpans: totalBook.positionSpans,
    ...span,
  });
  const strategies: Record<string, BacktestMetrics> = {};
  for (const s of enabled) {
    const book = books.get(s.id) as Book;
    const rest = { equity: book.equity, flexEarnings: '0', unrealisedPnl: book.unrealisedPnl.toFixed(), positionSpans: book.positionSpans };
    strategies[s.id] = (acc.own.get(s.id) as MetricsFold).finish({ ...rest, orders: sentBy.get(s.id) ?? 0, ...span });
  }
  const prices: Record<string, PricePoint[]> = {};
  for (const [market, column] of samples.prices) prices[market] = thinned(samples, column, (timeMs, price): PricePoint => ({ timeMs, price }));
  const head: ResultHead = {
    version: 1,
    inputs: {
      config: inputs.configFile,
      configSha256: inputs.configSha256,
      prices: inputs.prices,
      fromMs: inputs.fromMs,
      toMs: inputs.toMs,
      fillModel: inputs.fillModel,
      ...(inputs.warmUp === undefined ? {} : { warmUp: inputs.warmUp }),
    },
    total,
    strategies,
    equity: thinned(samples, samples.equity, (timeMs, equity): EquityPoint => ({ timeMs, equity })),
    prices,
  };
  return { head, ...pass };
}

/** The whole result in memory (tests, an optimisation trial): the pass's head and both lists. */
export function buildResult(state: RunState, inputs: ResultInputs): BacktestResult {
  const { head } = resultPass(state, inputs);
  const fills = [...resultFills(state)];
  return { ...head, fills, trades: [...tradesOf(fills)] };
}

/**
 * Writes result.json, report.html and venue-fills.json into `outDir` from the store and the
 * venue as they stand (both are open until the run returns). One reading of the store's fills
 * gives the figures and writes the fills' and the round trips' text to files beside the result
 * (the head, which comes first in result.json, is known only at the end), which result.json then
 * copies; the report's markers are kept compactly from the same reading; the venue's deals are
 * read from its archive, then memory. No list of the run is held whole. The files are
 * byte-identical to the whole result's (buildResult, renderReport, JSON.stringify of truthFills).
 */
export function writeResultFiles(state: RunState, inputs: ResultInputs, outDir: string): ResultHead {
  mkdirSync(outDir, { recursive: true });
  const fillsFile = path.join(outDir, '.result-fills.part');
  const tradesFile = path.join(outDir, '.result-trades.part');
  const marks = new FillMarks();
  try {
    const pass = writeLists(fillsFile, tradesFile, (sink) => resultPass(state, inputs, sink), marks);
    const { head } = pass;
    writeFileInPieces(path.join(outDir, 'result.json'), (w) => writeResultJsonOfFiles(w, head, fillsFile, tradesFile));
    const report: ReportInput = {
      head,
      fillCount: head.total.fills,
      tradeCount: head.total.trades,
      firstFills: pass.firstFills,
      firstTrades: pass.firstTrades,
      fillMarkets: pass.fillMarkets,
      fillsInOrder: () => marks.inOrder(),
    };
    writeFileInPieces(path.join(outDir, 'report.html'), (w) => writeReport(w, report));
    writeFileInPieces(path.join(outDir, 'venue-fills.json'), (w) => writeListFile(w, truthFillsInOrder(state)));
    return head;
  } finally {
    rmSync(fillsFile, { force: true });
    rmSync(tradesFile, { force: true });
  }
}

/** Runs `pass` with a sink that writes the fills' and the trades' list text (result.json's, member-deep) to the two files. */
function writeLists(fillsFile: string, tradesFile: string, pass: (sink: ListSink) => ResultPass, marks: FillMarks): ResultPass {
  let out: ResultPass | undefined;
  writeFileInPieces(fillsFile, (fw) =>
    writeFileInPieces(tradesFile, (tw) => {
      const fills = new ListWriter(fw);
      const trades = new ListWriter(tw);
      out = pass({
        fill: (f) => {
          fills.add(f);
          marks.add(f);
        },
        trade: (t) => trades.add(t),
      });
      fills.end();
      trades.end();
    }),
  );
  return out as ResultPass;
}

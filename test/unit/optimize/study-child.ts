/**
 * Child process of the study kill test: runs a 12-trial study over the pure executor with its
 * study file in STUDY_DIR. With HANG_AFTER=n the executor stops answering after n trials (the
 * test then kills the process with SIGKILL); otherwise the study runs to its end and its result
 * goes to STUDY_DIR/result-<RUN>.json. Every trial the executor runs is appended to
 * STUDY_DIR/ran-<RUN>.log. Run with `node --import tsx`.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadObjective } from '../../../src/optimize/objective.js';
import { gridPoints } from '../../../src/optimize/search.js';
import { parseSpace } from '../../../src/optimize/space.js';
import { StudyStore } from '../../../src/optimize/study-store.js';
import { runStudy } from '../../../src/optimize/study.js';
import { DAY_MS } from '../../../src/optimize/walk-forward.js';
import { FakeExecutor } from './fake-executor.js';

const dir = process.env['STUDY_DIR'] as string;
const run = process.env['RUN'] as string;
const hangAfter = process.env['HANG_AFTER'] === undefined ? Number.POSITIVE_INFINITY : Number(process.env['HANG_AFTER']);
const space = parseSpace(JSON.stringify({ strategy: 'grid1', params: { levels: { range: [1, 6], step: 1 }, spacingPct: { values: ['1', '2'] } } }));
const inputs = { configText: '{}', configSha256: 'c', prices: 'p', pricesSha256: 'p', strategySha256: 's', strategy: 'grid1', backtestFlags: [] };
const fromMs = Date.UTC(2024, 0, 1);
let count = 0;
const executor = new FakeExecutor({
  slots: 1,
  before: (spec) => {
    // A timer keeps the process alive while it hangs: it ends only when killed.
    if (count >= hangAfter) return new Promise<void>(() => setInterval(() => undefined, 60_000));
    count += 1;
    appendFileSync(path.join(dir, `ran-${run}.log`), `${spec.key}\n`);
    return undefined;
  },
});
const store = StudyStore.open(path.join(dir, 'study.sqlite'), { space, seed: 7 });
const plan = { name: 'kill', inputs, space, search: 'grid' as const, points: gridPoints(space), seed: 7, objective: await loadObjective('net'), span: { fromMs, toMs: fromMs + 30 * DAY_MS }, walkForward: null };
const out = await runStudy(plan, { executor, store, signal: new AbortController().signal });
store.close();
writeFileSync(path.join(dir, `result-${run}.json`), JSON.stringify(out));

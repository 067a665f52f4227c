/**
 * One study from plan to `StudyResult` (docs/optimize.md): the trials over the whole span, or per
 * walk-forward fold the search on the train window, the best of it (by the objective, ties to the
 * lower trial index) on the test window, then the folds, the stitched out-of-sample equity and the
 * overfitting flags. Train trials of every fold go out together (they do not depend on each
 * other), then the folds' test trials.
 */
import type { EquityPoint } from '../backtest/result.js';
import { Coordinator, type CoordinatorRun } from './coordinator.js';
import type { Objective } from './objective.js';
import { compareTrials } from './objectives.js';
import type { FinishedTrial, StudyStore } from './study-store.js';
import { trialSpecs } from './trial-specs.js';
import { fewTradesFlag, foldWindows, oosFlags, paramFlags, stitchEquity, type WalkForwardPlan } from './walk-forward.js';
import type { OverfitFlag, ParamValues, SearchSpace, StudyInputs, StudyResult, TrialExecutor, TrialOutcome, TrialSpec, WalkForwardFold } from './types.js';

export interface StudyPlan {
  name: string;
  inputs: StudyInputs;
  space: SearchSpace;
  search: 'grid' | 'random';
  /** The param assignments to try (grid order or draw order). */
  points: readonly ParamValues[];
  seed: number;
  objective: Objective;
  /** The data span (after --from/--to). */
  span: { fromMs: number; toMs: number };
  walkForward: WalkForwardPlan | null;
}

export interface StudyProgress {
  done: number;
  total: number;
  failed: number;
  /** Best objective among the finished trials so far (any window), null while none has one. */
  best: string | null;
  /** Trials run by this process (for the rate). */
  ranNow: number;
}

export interface StudyDeps {
  executor: TrialExecutor;
  store: StudyStore;
  signal: AbortSignal;
  onProgress?: (p: StudyProgress) => void;
}

export type StudyOutcome =
  | { aborted: false; result: StudyResult; duplicates: number }
  | { aborted: true; done: number; total: number };

/** A trial that ended with an outcome, and its objective. */
interface Scored {
  spec: TrialSpec;
  outcome: TrialOutcome;
  objective: string | null;
}

export class StudyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StudyError';
  }
}

class Runner {
  private readonly scores = new Map<string, string | null>();
  private progress: StudyProgress;
  private readonly coordinator: Coordinator;
  private scoring: Promise<void> = Promise.resolve();
  private scoreError: unknown = null;
  /** Aborted when the objective fails: the trials still to run could not be ranked. */
  private readonly stop = new AbortController();

  constructor(
    private readonly plan: StudyPlan,
    private readonly deps: StudyDeps,
    total: number,
  ) {
    this.progress = { done: 0, total, failed: 0, best: null, ranNow: 0 };
    this.coordinator = new Coordinator({
      executor: deps.executor,
      store: deps.store,
      inputs: plan.inputs,
      onRecorded: (_spec, trial) => {
        this.progress.ranNow += 1;
        this.count(trial);
      },
    });
  }

  /** Counts a finished trial into the progress; an outcome's objective is computed in order. */
  private count(trial: FinishedTrial): void {
    this.progress.done += 1;
    if (!trial.ok) {
      this.progress.failed += 1;
      this.deps.onProgress?.({ ...this.progress });
      return;
    }
    this.scoring = this.scoring.then(async () => {
      if (this.scoreError !== null) return;
      try {
        const value = await this.score(trial.outcome);
        if (value !== null && compareTrials({ objective: value, index: 0 }, { objective: this.progress.best, index: 0 }) < 0) this.progress.best = value;
        this.deps.onProgress?.({ ...this.progress });
      } catch (err) {
        this.scoreError = err;
        this.stop.abort();
      }
    });
  }

  async score(outcome: TrialOutcome): Promise<string | null> {
    if (this.scores.has(outcome.key)) return this.scores.get(outcome.key) ?? null;
    const value = await this.plan.objective.value(outcome);
    this.scores.set(outcome.key, value);
    return value;
  }

  /** Runs the specs; previously finished ones count into the progress first. */
  async run(specs: readonly TrialSpec[]): Promise<CoordinatorRun> {
    const stored = this.deps.store.finished();
    for (const s of specs) {
      const f = stored.get(s.key);
      if (f !== undefined) this.count(f);
    }
    const out = await this.coordinator.run(specs, AbortSignal.any([this.deps.signal, this.stop.signal]));
    await this.scoring;
    if (this.scoreError !== null) throw this.scoreError;
    return out;
  }

  async scored(specs: readonly TrialSpec[], finished: Map<string, FinishedTrial>): Promise<Scored[]> {
    const out: Scored[] = [];
    for (const spec of specs) {
      const f = finished.get(spec.key);
      if (f?.ok === true) out.push({ spec, outcome: f.outcome, objective: await this.score(f.outcome) });
    }
    return out;
  }

  get done(): number {
    return this.progress.done;
  }
}

function bestOf(trials: readonly Scored[]): Scored | undefined {
  return [...trials].sort((a, b) => compareTrials({ objective: a.objective, index: a.spec.index }, { objective: b.objective, index: b.spec.index }))[0];
}

type Failure = NonNullable<StudyResult['failures']>[number];

function failuresOf(finished: Map<string, FinishedTrial>): Failure[] {
  return [...finished.values()]
    .flatMap((f) => (f.ok ? [] : [{ index: f.spec.index, key: f.spec.key, params: f.spec.params, window: f.spec.window, error: f.error }]))
    .sort((a, b) => a.index - b.index);
}

function resultBase(plan: StudyPlan, trials: readonly Scored[]): Omit<StudyResult, 'best' | 'walkForward' | 'flags'> {
  const { configText: _omitted, ...inputs } = plan.inputs;
  return {
    version: 1,
    study: plan.name,
    objective: plan.objective.name,
    search: plan.search,
    seed: plan.seed,
    inputs,
    space: plan.space,
    trials: [...trials]
      .sort((a, b) => a.spec.index - b.spec.index)
      .map((t) => ({ index: t.spec.index, key: t.spec.key, params: t.spec.params, window: t.spec.window, objective: t.objective, metrics: t.outcome.metrics })),
  };
}

async function fullSpan(plan: StudyPlan, deps: StudyDeps): Promise<StudyOutcome> {
  const window = { fromMs: plan.span.fromMs, toMs: plan.span.toMs, fold: null, phase: 'full' as const };
  const specs = trialSpecs(plan.inputs, plan.points, window, plan.seed, 0);
  const runner = new Runner(plan, deps, specs.length);
  const run = await runner.run(specs);
  if (run.aborted) return { aborted: true, done: runner.done, total: specs.length };
  const trials = await runner.scored(specs, run.finished);
  const best = bestOf(trials);
  const flags: OverfitFlag[] = best === undefined ? [] : fewTradesFlag(best.outcome.metrics.trades, null, 'the whole span');
  const result: StudyResult = {
    ...resultBase(plan, trials),
    best: best === undefined ? null : { params: best.spec.params, objective: best.objective, metrics: best.outcome.metrics, equity: best.outcome.equity },
    walkForward: null,
    flags,
    failures: failuresOf(run.finished),
  };
  return { aborted: false, result, duplicates: deps.store.duplicates };
}

async function walkForward(plan: StudyPlan, wf: WalkForwardPlan, deps: StudyDeps): Promise<StudyOutcome> {
  const windows = foldWindows(wf, plan.span.fromMs, plan.span.toMs);
  const n = plan.points.length;
  const trainSpecs = windows.map((w) => trialSpecs(plan.inputs, plan.points, { ...w.train, fold: w.fold, phase: 'train' }, plan.seed, w.fold * n));
  const runner = new Runner(plan, deps, n * windows.length + windows.length);
  const train = await runner.run(trainSpecs.flat());
  if (train.aborted) return { aborted: true, done: runner.done, total: n * windows.length + windows.length };
  const chosen: Scored[] = [];
  for (const w of windows) {
    const best = bestOf(await runner.scored(trainSpecs[w.fold] as TrialSpec[], train.finished));
    if (best === undefined) throw new StudyError(`walk-forward fold ${w.fold}: every train trial failed (${failuresOf(train.finished)[0]?.error ?? ''})`);
    chosen.push(best);
  }
  const testSpecs = windows.map((w) => {
    const params = (chosen[w.fold] as Scored).spec.params;
    return trialSpecs(plan.inputs, [params], { ...w.test, fold: w.fold, phase: 'test' }, plan.seed, windows.length * n + w.fold)[0] as TrialSpec;
  });
  const test = await runner.run(testSpecs);
  if (test.aborted) return { aborted: true, done: runner.done, total: n * windows.length + windows.length };
  const tested = await runner.scored(testSpecs, test.finished);
  const folds: WalkForwardFold[] = [];
  const equities: EquityPoint[][] = [];
  const flags: OverfitFlag[] = [];
  for (const w of windows) {
    const t = tested.find((s) => s.spec.window.fold === w.fold);
    if (t === undefined) throw new StudyError(`walk-forward fold ${w.fold}: the test trial failed: ${failuresOf(test.finished)[0]?.error ?? ''}`);
    const c = chosen[w.fold] as Scored;
    const fold = { fold: w.fold, train: w.train, test: w.test, bestParams: c.spec.params };
    folds.push({ ...fold, inSample: c.objective, outOfSample: t.objective, testMetrics: t.outcome.metrics });
    equities.push(t.outcome.equity);
    flags.push(...fewTradesFlag(t.outcome.metrics.trades, w.fold, 'test window'));
  }
  flags.unshift(...oosFlags(folds), ...paramFlags(plan.space, folds));
  const last = chosen[chosen.length - 1] as Scored;
  const all = [...(await runner.scored(trainSpecs.flat(), train.finished)), ...tested];
  const result: StudyResult = {
    ...resultBase(plan, all),
    best: { params: last.spec.params, objective: last.objective, metrics: last.outcome.metrics, equity: last.outcome.equity },
    walkForward: { folds, stitchedEquity: stitchEquity(equities) },
    flags,
    failures: failuresOf(new Map([...train.finished, ...test.finished])),
  };
  return { aborted: false, result, duplicates: deps.store.duplicates };
}

/** Runs the study to its result, or to an abort (finished trials stay in the study file). */
export function runStudy(plan: StudyPlan, deps: StudyDeps): Promise<StudyOutcome> {
  return plan.walkForward === null ? fullSpan(plan, deps) : walkForward(plan, plan.walkForward, deps);
}

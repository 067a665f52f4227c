/**
 * A trial runner: a child process of the runner pool (runner-pool.ts) that runs one trial at a
 * time, for as many trials as it is sent. It exits when its parent goes away (the IPC channel
 * closes), so a killed coordinator or worker leaves no runner behind.
 */
import { rmSync } from 'node:fs';
import { installZeroDelayTimers } from '../backtest/zero-delay-timers.js';
import { errorMessage } from '../core/errors.js';
import { RUNNER_TMPDIR_ENV, type RunnerReply, type RunnerRequest } from './runner-pool.js';
import { runTrial, TrialError } from './trial.js';

// A process that only runs backtests: empty timer yields take no real time (as `npm run backtest`).
installZeroDelayTimers();

// Temp files of the backtests (their stores) go to this runner's own dir, removed even when its
// parent was killed and could not.
const tmp = process.env[RUNNER_TMPDIR_ENV];
if (tmp !== undefined) process.env['TMPDIR'] = tmp;
const removeTmp = (): void => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
};

async function handle(req: RunnerRequest): Promise<RunnerReply> {
  try {
    return { id: req.id, end: { ok: true, outcome: await runTrial(req.inputs, req.spec, { ranBy: req.ranBy }) } };
  } catch (err) {
    if (err instanceof TrialError) return { id: req.id, end: { ok: false, failure: err.failure, refused: err.refused } };
    return { id: req.id, end: { ok: false, failure: { key: req.spec.key, error: `the trial failed: ${errorMessage(err)}` }, refused: false } };
  }
}

process.on('disconnect', () => {
  removeTmp();
  process.exit(0);
});
process.on('message', (req: RunnerRequest) => {
  void handle(req).then((reply) => process.send?.(reply));
});
process.send?.({ ready: true });

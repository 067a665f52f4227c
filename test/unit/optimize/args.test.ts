import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { parseOptimizeArgs } from '../../../src/optimize/args.js';

const BASE = ['--prices', 'samples/prices', '--space', 'config/optimize-space.json', '--objective', 'net', '--out', 'out/study-a'];

function refusal(argv: readonly string[]): string {
  try {
    parseOptimizeArgs(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('the optimise command line', () => {
  it('takes the defaults: grid search, the out directory for the study, step job resolution', () => {
    const a = parseOptimizeArgs(BASE);
    expect(a).toMatchObject({ config: 'config/bot.json', search: 'grid', trials: null, seed: null, walkForward: null, workers: null, redis: null, retryFailed: false });
    expect(a.studyFile).toBe('out/study-a/study.sqlite');
    expect(a.studyName).toBe('study-a');
    expect(a.backtestFlags).toEqual(['--job-resolution', 'step']);
  });

  it('reads the search, walk-forward, study name, span and backtest flags', () => {
    const a = parseOptimizeArgs([...BASE, '--search', 'random', '--trials', '20', '--seed', '9', '--walk-forward', '3', '--train', '10', '--test', '5',
      '--study', 'grid-jan', '--workers', '2', '--to', '2024-01-01T03:00:00Z', '--fill', 'at', '--retry-failed']);
    expect(a).toMatchObject({ search: 'random', trials: 20, seed: 9, walkForward: { folds: 3, trainDays: 10, testDays: 5 }, workers: 2, retryFailed: true });
    expect(a.studyFile).toBe('studies/grid-jan.sqlite');
    expect(a.toMs).toBe(Date.UTC(2024, 0, 1, 3));
    expect(a.backtestFlags).toEqual(['--fill', 'at', '--job-resolution', 'step']);
  });

  it.each([
    [['--prices', 'p', '--space', 's', '--objective', 'net'], /--out: expected the output directory/],
    [BASE.filter((_, i) => i > 1), /--prices: expected a CSV file or a directory/],
    [[...BASE, '--bogus', '1'], /arguments: expected one of .*found "--bogus"/],
    [[...BASE, '--search', 'bayes'], /--search: expected "grid" or "random", found "bayes"/],
    [[...BASE, '--search', 'random'], /--trials: expected the number of random trials/],
    [[...BASE, '--trials', '5'], /--trials: expected no --trials with --search grid/],
    [[...BASE, '--trials', '0', '--search', 'random'], /--trials: expected a whole number from 1/],
    [[...BASE, '--seed', '-1'], /--seed: expected a whole number from 0 to 4294967295/],
    [[...BASE, '--walk-forward', '3', '--train', '10'], /--test: expected the test window in days/],
    [[...BASE, '--train', '10', '--test', '5'], /--walk-forward: expected a fold count/],
    [[...BASE, '--workers', '2', '--redis', 'redis://localhost:6379'], /--workers: expected either --workers .* or --redis/],
    [[...BASE, '--redis', 'http://user:pw@host'], /--redis: expected a redis:\/\/ or rediss:\/\/ URL, found "http:\/\/\*\*\*@host"/],
    [[...BASE, '--study', '../escape'], /--study: expected a name of letters/],
    [[...BASE, '--to', 'yesterday'], /--to: expected an ISO-8601 UTC time/],
    [[...BASE, '--objective', 'sharpe'], /--objective: expected the flag once/],
    [[...BASE, '--workers'], /--workers: expected a value/],
  ])('refuses %j, naming the flag', (argv, message) => {
    expect(refusal(argv)).toMatch(message);
  });
});

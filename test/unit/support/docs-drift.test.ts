/**
 * The drift check itself, on a small repository built in a temp dir: each kind of drift is
 * reported with its line and a nearest match, and what is true passes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from '../../support/docs-drift/checks.js';
import { headingSlugs } from '../../support/docs-drift/markdown.js';
import { loadRepo, type Repo } from '../../support/docs-drift/repo.js';
import { tempDir } from '../../support/temp-dir.js';

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ scripts: { start: 'node .', test: 'vitest', backtest: 'node b.js' } }),
  'src/engine/runner.ts': [
    'export interface Base { ping(): void }',
    'export interface Port extends Base { submit(): void }',
    'export class Runner implements Port {',
    '  constructor(private readonly store: object) {}',
    '  ping(): void {}',
    '  submit(): void {}',
    '  private refuse(): void {}',
    '}',
    'export const LIMITS = { orders: 1 } as const;',
  ].join('\n'),
  'src/engine/other.ts': 'export class Runner { stop(): void {} }',
  'config/bot.json': '{}',
  'docs/guide.md': '# Guide\n\n## Run `npm start` twice\n\n## Run `npm start` twice\n',
};

const root = tempDir('docs-drift-');
let repo: Repo;

beforeAll(() => {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  repo = loadRepo(root);
});

function problems(page: string, text: string): string[] {
  return checkPage(repo, page, text).map((p) => `${p.line}: ${p.message}`);
}

describe('docs drift check', () => {
  it('passes a page that names only what exists', () => {
    const text = [
      'See `src/engine/runner.ts` (`Runner.submit`, `Runner.ping()`, `Runner.store`, the private `Runner.refuse`),',
      'engine/runner.ts, `dist/src/engine/runner.js`, src/engine/*.ts, src/** and `src/**/other.ts`, `config/bot.json`, `LIMITS.orders`, `Math.max`.',
      '[guide](docs/guide.md), [twice](docs/guide.md#run-npm-start-twice-1), [top](#top), [web](https://example.com/x).',
      '`BTC_PERP.maxPositionBase` is a config key; `README.md` is a file name; see SGrondin/bottleneck issue 185 and Freqtrade issue 619.',
      '```sh',
      'npm start && npm test && npm run backtest -- --config config/bot.json',
      '```',
      '```ts',
      "import x from './src/made-up-in-a-sample.ts';",
      '```',
      '# Top',
    ].join('\n');
    expect(problems('README.md', text)).toEqual([]);
  });

  it('names the line, what is wrong and the nearest match', () => {
    const text = [
      'Paths: `src/engine/runer.ts` and test/unit/gone.test.ts.',
      'Members: `Runner.sumbit`, `RatePool.schedule`, `JSON.stringfy`.',
      'Links: [g](docs/gide.md) and [a](docs/guide.md#run-npm-strat-twice).',
      'Before the fixes of issue 9 it failed.',
      '```sh',
      'npm run backtset -- --prices samples/prices',
      '```',
    ].join('\n');
    expect(problems('README.md', text)).toEqual([
      '1: path src/engine/runer.ts does not exist (nearest: src/engine/runner.ts)',
      '1: path test/unit/gone.test.ts does not exist (nearest: src/engine/other.ts)',
      '6: path samples/prices does not exist (nearest: src/engine)',
      '2: `Runner.sumbit`: Runner (src/engine/other.ts, src/engine/runner.ts) has no member sumbit (nearest: Runner.submit)',
      '2: `RatePool.schedule`: no class, interface or object RatePool is declared in src/ or strategies/ (nearest: Base)',
      '2: `JSON.stringfy`: the built-in JSON has no member stringfy',
      '3: link (docs/gide.md) leads to docs/gide.md, which does not exist (nearest: docs/guide.md)',
      '3: link (docs/guide.md#run-npm-strat-twice): docs/guide.md has no heading with anchor #run-npm-strat-twice (nearest: #run-npm-start-twice)',
      '6: `npm run backtset`: package.json has no script backtset (nearest: backtest)',
      '4: "issue 9": nothing in the repository explains this number; say what was found and fixed instead',
    ]);
  });

  it('checks a member in the file named on the same line when that file declares it', () => {
    expect(problems('README.md', '`Runner.stop` in `src/engine/runner.ts`')).toEqual([
      '1: `Runner.stop`: Runner (src/engine/runner.ts) has no member stop (nearest: Runner.store)',
    ]);
    expect(problems('README.md', '`Runner.stop` in `src/engine/other.ts`')).toEqual([]);
  });

  it('resolves links from the page folder', () => {
    expect(problems('docs/guide.md', '# Guide\n[back](../config/bot.json) [self](#guide) [bad](config/bot.json)')).toEqual([
      '2: link (config/bot.json) leads to docs/config/bot.json, which does not exist (nearest: config/bot.json)',
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect([...headingSlugs(['`npm run status [-- --json]`', 'Risk gate', 'Risk gate', 'Flex & credit: jobs', 'What it does *not* model'])]).toEqual([
      'npm-run-status------json',
      'risk-gate',
      'risk-gate-1',
      'flex--credit-jobs',
      'what-it-does-not-model',
    ]);
  });
});

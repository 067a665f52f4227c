/**
 * Strategy failures name the strategy file and the line: a module that does not load (syntax
 * error, a throw at the top level) and a hook that throws. A broken module the config does not
 * name is never imported, so it cannot stop the others.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { validate } from 'node-cron';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { WorkerExecutor } from '../../../src/engine/sandbox-worker/worker-executor.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { BufferedState, loadStrategies, type LoaderOptions } from '../../../src/strategy-api/host.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { tempDir } from '../../support/temp-dir.js';

const dir = tempDir('v4bot-strategies-');
const api = pathToFileURL(path.resolve('src/strategy-api/index.ts')).href;
const options: LoaderOptions = { dirs: [dir], extensions: ['.js'], knownMarkets: new Set(['BTC_USDT']), validateSchedule: validate };

/** Writes `strategies/<name>.js`; returns its path. */
function strategy(name: string, lines: string[]): string {
  const file = path.join(dir, `${name}.js`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const define = (body: string[]): string[] => [
  `import { defineStrategy, z } from '${api}';`,
  'export default defineStrategy({',
  "  name: 'probe',",
  '  params: z.strictObject({}),',
  "  schedule: '*/10 * * * * *',",
  ...body,
  '});',
];

async function refusal(name: string): Promise<ConfigError> {
  try {
    await loadStrategies([{ index: 0, module: name, id: 'x1', params: {} }], options);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('strategy failures name the file and line', () => {
  it('a module with a syntax error', async () => {
    const file = strategy('syntax', ['export const a = 1;', 'export const b = ;']);
    const err = await refusal('syntax');
    expect(err.context['keys']).toEqual(['strategies[0].module']);
    expect(err.message).toContain(`${file}:2`);
  });

  it('a module that throws while loading', async () => {
    const file = strategy('throws', ['export const a = 1;', '', "throw new Error('no config here');"]);
    const err = await refusal('throws');
    expect(err.message).toContain(`${file}:3:`);
    expect(err.message).toContain('no config here');
  });

  it('a module without a definition names its file', async () => {
    const file = strategy('plain', ['export default 42;']);
    expect((await refusal('plain')).message).toContain(file);
  });

  it('a hook that throws', async () => {
    const file = strategy('hook', define(['  onTick(ctx) {', '    return ctx.missing.field;', '  },']));
    const [loaded] = await loadStrategies([{ index: 0, module: 'hook', id: 'h1', params: {} }], options);
    const executor = new WorkerExecutor({ file: loaded?.file ?? '', instanceId: 'h1', params: {}, knownMarkets: [], stateEntries: () => ({}), logger: silentLogger() });
    try {
      const run = executor.run({ hook: 'onTick', data: snapshot({ prices: {} }), state: new BufferedState(new MemoryState()) });
      await expect(run).rejects.toThrow(`${file}:7:`);
    } finally {
      await executor.close();
    }
  });

  it('a broken module the config does not name does not stop the others', async () => {
    strategy('broken-unused', ['export const b = ;']);
    strategy('fine', define(['  onTick() {', '    return [];', '  },']));
    const loaded = await loadStrategies([{ index: 0, module: 'fine', id: 'f1', params: {} }], options);
    expect(loaded.map((l) => l.id)).toEqual(['f1']);
  });
});

/**
 * The light settings reader of `ctl` and `status` accepts and refuses the environment exactly as
 * `loadConfig` does for the keys it reads, and never loads the schemas.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCommandSettings } from '../../../src/config/command-settings.js';
import { loadConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/core/errors.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

const cwd = tempDir('v4bot-cmd-settings-');
writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify(validFileConfig()));
writeFileSync(path.join(cwd, 'file.env'), 'BOT_HTTP_PORT=9200\nBOT_DATA_DIR=./from-file\n');

const TOKEN = 'a-control-token-of-32-characters';
const CASES: Record<string, string>[] = [
  {},
  { ENV_FILE: 'file.env' },
  { ENV_FILE: 'file.env', BOT_HTTP_PORT: '9300', BOT_DATA_DIR: '' },
  { BOT_MODE: 'paper', BOT_HTTP_PORT: '65535', BOT_HTTP_HOST: '::1', BOT_CONTROL_TOKEN: TOKEN },
  { BOT_MODE: 'prod' },
  { BOT_HTTP_PORT: '70000' },
  { BOT_HTTP_PORT: '-1' },
  { BOT_HTTP_PORT: '80x' },
  { BOT_HTTP_HOST: 'bad host' },
  { BOT_CONTROL_TOKEN: 'short-token-value' },
  { ENV_FILE: 'missing.env' },
];

type Outcome = { ok: Record<string, unknown> } | { refused: unknown };

function outcome(fn: () => { mode: string; dataDir: string; httpPort: number; httpHost: string; controlToken: { reveal(): string } | null }): Outcome {
  try {
    const c = fn();
    return { ok: { mode: c.mode, dataDir: c.dataDir, httpPort: c.httpPort, httpHost: c.httpHost, token: c.controlToken?.reveal() ?? null } };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    expect(err.message).not.toContain('short-token-value');
    return { refused: err.context['keys'] };
  }
}

describe('readCommandSettings', () => {
  it.each(CASES.map((env) => [JSON.stringify(env), env] as const))('agrees with loadConfig for %s', (_name, env) => {
    const full = { BOT_CONFIG: 'bot.json', ...env };
    const light = outcome(() => readCommandSettings({ cwd, env: full }));
    expect(light).toEqual(outcome(() => loadConfig({ cwd, env: full })));
  });

  it('ctl and status import no schema library: their static import graph holds neither zod nor the schemas', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      // Value imports and re-exports only: `import type` is erased by the compiler.
      for (const m of text.matchAll(/^(?:import|export)(?! type)[^;]*? from '([^']+)';/gms)) {
        const spec = m[1] as string;
        if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
        else packages.add(spec);
      }
    };
    walk(path.resolve('src/cli/ctl.ts'));
    walk(path.resolve('src/cli/status.ts'));
    expect([...packages].filter((p) => !p.startsWith('node:')).sort()).toEqual(['better-sqlite3', 'decimal.js', 'dotenv']);
    expect([...seen].map((f) => path.relative(process.cwd(), f)).filter((f) => /config\/(schema|load|notify)\.ts$/.test(f))).toEqual([]);
  });
});

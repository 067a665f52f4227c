/**
 * The lint rule that keeps strategies on the author surface, run through ESLint's Node API with
 * the project's own config over small sources placed (virtually) in strategies/.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve('.') });

/** Rule ids and lines of the import problems ESLint reports for `source` at `file`. */
async function importProblems(file: string, source: string): Promise<{ line: number; rule: string | null }[]> {
  const [result] = await eslint.lintText(source, { filePath: path.resolve(file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal === true).map((m) => ({ line: m.line, rule: m.ruleId }));
}

const refused = (line: number): { line: number; rule: string } => ({ line, rule: 'no-restricted-imports' });

describe('strategies import only the author surface', () => {
  it('accepts the author entry, from a file or a folder strategy, and local helpers', async () => {
    const single = "import { p, z } from '../src/strategy-api/index.js';\nexport const x = [p, z];\n";
    expect(await importProblems('strategies/probe.ts', single)).toEqual([]);
    const folder = "import { p } from '../../src/strategy-api/index.js';\nimport { h } from './helper.js';\nexport const x = [p, h];\n";
    expect(await importProblems('strategies/probe/index.ts', folder)).toEqual([]);
  });

  it('refuses the host side and the files behind the author entry', async () => {
    const source = [
      "import { loadStrategies } from '../src/strategy-api/host.js';",
      "import { parseIntents } from '../src/strategy-api/intents.js';",
      "import { HookGuard } from '../src/strategy-api/safe-call.js';",
      'export const x = [loadStrategies, parseIntents, HookGuard];',
    ].join('\n');
    expect(await importProblems('strategies/probe.ts', source)).toEqual([refused(1), refused(2), refused(3)]);
  });

  it('refuses the rest of src/ and second copies of decimal.js and zod', async () => {
    const source = [
      "import { ManualClock } from '../../src/core/clock.js';",
      "import { Decimal } from 'decimal.js';",
      "import { z } from 'zod';",
      'export const x = [ManualClock, Decimal, z];',
    ].join('\n');
    expect(await importProblems('strategies/probe/index.ts', source)).toEqual([refused(1), refused(2), refused(3)]);
  });

  it('leaves the engine free to use the host side', async () => {
    const source = "import { HookGuard } from '../strategy-api/host.js';\nexport const x = HookGuard;\n";
    expect(await importProblems('src/engine/probe.ts', source)).toEqual([]);
  });
});

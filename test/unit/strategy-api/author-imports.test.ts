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
  it('accepts the author entry, from a file or a folder strategy, and refuses local helpers (the sandbox loads one file)', async () => {
    const single = "import { p, z } from '../src/strategy-api/index.js';\nexport const x = [p, z];\n";
    expect(await importProblems('strategies/probe.ts', single)).toEqual([]);
    const folder = "import { p } from '../../src/strategy-api/index.js';\nimport { h } from './helper.js';\nexport const x = [p, h];\n";
    expect(await importProblems('strategies/probe/index.ts', folder)).toEqual([refused(2)]);
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

  it('refuses Node builtins, with or without the node: scheme, as imports and re-exports', async () => {
    const source = [
      "import { readFileSync } from 'node:fs';",
      "import { exec } from 'child_process';",
      "import net from 'net';",
      "import * as http from 'node:http';",
      "import { Worker } from 'worker_threads';",
      "import process from 'process';",
      "import { readFile } from 'fs/promises';",
      "export { env } from 'node:process';",
      'export const x = [readFileSync, exec, net, http, Worker, process, readFile];',
    ].join('\n');
    expect(await importProblems('strategies/probe.ts', source)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map(refused));
  });

  it('refuses dynamic imports, require and the process global', async () => {
    const source = [
      "export const a = async () => import('node:fs');",
      "export const b = () => require('fs');",
      "export const c = () => process.env['API_SECRET'];",
      "export const d = () => globalThis.process;",
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: path.resolve('strategies/probe.ts') });
    const found = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-globals').map((m) => m.line);
    expect([...new Set(found)]).toEqual([1, 2, 3, 4]);
  });

  it('refuses what the sandbox does not have: code from strings, the constructor trick, the network, shared memory', async () => {
    const source = [
      "export const a = () => eval('1');",
      "export const b = () => new Function('return 1');",
      "export const c = () => (() => 0).constructor('return process');",
      "export const d = (f: object) => f['constructor'];",
      "export const e = () => fetch('http://127.0.0.1/');",
      "export const f = () => new WebSocket('ws://127.0.0.1/');",
      'export const g = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);',
      'export const h = () => global;',
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: path.resolve('strategies/probe.ts') });
    const lines = new Set((result?.messages ?? []).map((m) => m.line));
    expect([...lines].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('leaves src/ free to use Node builtins', async () => {
    expect(await importProblems('src/config/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([]);
  });

  it('leaves the engine free to use the host side', async () => {
    const source = "import { HookGuard } from '../strategy-api/host.js';\nexport const x = HookGuard;\n";
    expect(await importProblems('src/engine/probe.ts', source)).toEqual([]);
  });
});

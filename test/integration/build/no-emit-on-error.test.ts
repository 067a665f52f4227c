/**
 * The build refuses to emit when any file fails to compile: a strategy with a type or syntax
 * error must not leave a runnable `.js` that `node` or pm2 would then start. Runs the real `tsc`
 * with the project's tsconfig.build.json over a small project in a temp dir.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dir.js';

const run = promisify(execFile);
const ROOT = path.resolve('.');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
/** A project extending tsconfig.build.json with `strategies/<name>.ts` files. */
function project(files: Record<string, string>): string {
  const dir = tempDir('v4bot-build-');
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
  mkdirSync(path.join(dir, 'strategies'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'strategies', `${name}.ts`), text);
  const config = { extends: path.join(ROOT, 'tsconfig.build.json'), compilerOptions: { rootDir: '.', outDir: 'dist' }, include: ['strategies'] };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
  return dir;
}

async function build(dir: string): Promise<number> {
  try {
    await run(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir });
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

const good = 'export const ok: string = "fine";\n';

describe('build with a broken strategy', () => {
  it('exits non-zero and emits no JS for a type error', async () => {
    const dir = project({ good, broken: 'export const n: number = "not a number";\n' });
    expect(await build(dir)).not.toBe(0);
    expect(existsSync(path.join(dir, 'dist/strategies/broken.js'))).toBe(false);
  });

  it('exits non-zero and emits no JS for a syntax error', async () => {
    const dir = project({ good, broken: 'export const n = ;\n' });
    expect(await build(dir)).not.toBe(0);
    expect(existsSync(path.join(dir, 'dist/strategies/broken.js'))).toBe(false);
  });

  it('emits when everything compiles (the control)', async () => {
    const dir = project({ good });
    expect(await build(dir)).toBe(0);
    expect(existsSync(path.join(dir, 'dist/strategies/good.js'))).toBe(true);
  });
});

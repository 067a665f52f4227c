/**
 * The package's bin (`npx v4-bot …`, bin/v4-bot.js) against the real built dist/: `--help` lists
 * every command, and each command is handed to its own built entry point (its own usage or its
 * own refusal comes back, not the launcher's).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';

function bin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k)));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/v4-bot.js'), ...args], { cwd: tempDir(), env: clean }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? -1), stdout, stderr });
    });
  });
}

describe('v4-bot bin', () => {
  it('is the package.json bin, a plain JS file with a shebang', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.bin).toEqual({ 'v4-bot': 'bin/v4-bot.js' });
    expect(readFileSync(path.join(ROOT, pkg.bin['v4-bot'] as string), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    for (const c of ['ctl', 'status', 'prices', 'backtest', 'optimize']) expect(pkg.scripts[c]).toBe(`node bin/v4-bot.js ${c}`);
  });

  it('--help lists the commands; no command is a usage error', async () => {
    const help = await bin('--help');
    expect(help.code).toBe(0);
    for (const c of ['start', 'ctl', 'status', 'prices', 'backtest', 'optimize', 'sim']) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(await bin()).toMatchObject({ code: 2 });
    const unknown = await bin('stauts');
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('v4-bot: unknown command "stauts"');
  });

  it('hands each command to its built entry point', async () => {
    const status = await bin('status', '--help');
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toContain('usage: status [--json] [--data-dir DIR]');
    const ctl = await bin('ctl', '--help');
    expect(ctl).toMatchObject({ code: 0, stderr: '' });
    expect(ctl.stdout).toContain('usage: ctl <action> [strategy]');
    const prices = await bin('prices', 'erase');
    expect(prices).toMatchObject({ code: 2 });
    expect(prices.stderr).toContain('v4-bot prices: expected the command "export" or "import", found "erase"');
    const backtest = await bin('backtest', '--fill', 'x');
    expect(backtest).toMatchObject({ code: 2 });
    expect(backtest.stderr).toContain('v4-bot backtest: command line: --prices');
  });
});

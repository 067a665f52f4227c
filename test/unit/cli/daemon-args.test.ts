/**
 * The daemon's flags and the `--reset-paper` confirmation: RESET typed on a terminal confirms,
 * anything else does not; no terminal needs `--yes`; `--yes` alone and unknown flags are refused;
 * live mode refuses the reset naming why.
 */
import { describe, expect, it } from 'vitest';
import { confirmReset, parseDaemonArgs, refuseLiveReset, type ConfirmIo } from '../../../src/cli/daemon-args.js';
import type { BotConfig } from '../../../src/config/index.js';

function terminal(answer: string): ConfirmIo & { asked: string[] } {
  const asked: string[] = [];
  return { isTTY: true, asked, ask: (q) => (asked.push(q), Promise.resolve(answer)) };
}

describe('daemon flags', () => {
  it('parses the known flags and refuses unknown ones and a --yes without --reset-paper', () => {
    expect(parseDaemonArgs([])).toEqual({ resumeTrading: false, resetPaper: false, yes: false });
    expect(parseDaemonArgs(['--reset-paper', '--yes', '--resume-trading'])).toEqual({ resumeTrading: true, resetPaper: true, yes: true });
    expect(() => parseDaemonArgs(['--reset'])).toThrow(/--reset: an unknown argument/);
    expect(() => parseDaemonArgs(['--yes'])).toThrow(/--yes: confirms --reset-paper only/);
  });

  it('refuses --reset-paper in live mode only', () => {
    expect(() => refuseLiveReset({ mode: 'live' } as BotConfig)).toThrow(/refused in live mode.*cannot be reset by the bot/);
    expect(() => refuseLiveReset({ mode: 'paper' } as BotConfig)).not.toThrow();
  });
});

describe('--reset-paper confirmation', () => {
  it('on a terminal: RESET confirms, naming the data dir and the archive; anything else does not', async () => {
    const yes = terminal('RESET\r');
    expect(await confirmReset('/d', false, yes)).toBe(true);
    expect(yes.asked[0]).toMatch(/fresh paper account in \/d.*\/d\/archive\/.*Type RESET to continue/s);
    expect(await confirmReset('/d', false, terminal('reset'))).toBe(false);
    expect(await confirmReset('/d', false, terminal(''))).toBe(false);
  });

  it('without a terminal: refused unless --yes, which needs no question', async () => {
    const io: ConfirmIo = { isTTY: false, ask: () => Promise.reject(new Error('must not ask')) };
    await expect(confirmReset('/d', false, io)).rejects.toThrow(/not a terminal.*add --yes/);
    expect(await confirmReset('/d', true, io)).toBe(true);
  });
});

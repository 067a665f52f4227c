/**
 * The daemon's command line and the `--reset-paper` confirmation (docs/paper-account.md):
 * on a terminal the operator types RESET; without a terminal (pm2, a script, a pipe) the
 * command line must say `--yes`, else the reset is refused before anything changes.
 */
import { createInterface } from 'node:readline';
import type { BotConfig } from '../config/index.js';
import { ConfigError } from '../core/errors.js';

export interface DaemonArgs {
  resumeTrading: boolean;
  resetPaper: boolean;
  yes: boolean;
}

const FLAGS = ['--resume-trading', '--reset-paper', '--yes'] as const;

function usage(found: string): ConfigError {
  return new ConfigError(`invalid configuration:\n  command line: ${found}: expected ${FLAGS.join(', ')} or nothing`);
}

/** Parses the flags; throws ConfigError (exit 2) for an unknown one or a `--yes` with nothing to confirm. */
export function parseDaemonArgs(args: readonly string[]): DaemonArgs {
  const unknown = args.find((a) => !(FLAGS as readonly string[]).includes(a));
  if (unknown !== undefined) throw usage(`${unknown}: an unknown argument`);
  const out = { resumeTrading: args.includes('--resume-trading'), resetPaper: args.includes('--reset-paper'), yes: args.includes('--yes') };
  if (out.yes && !out.resetPaper) throw usage('--yes: confirms --reset-paper only, which is not given');
  return out;
}

/** `--reset-paper` in live mode: refused (the live account is the venue's, not the bot's to reset). */
export function refuseLiveReset(config: BotConfig): void {
  if (config.mode !== 'live') return;
  throw new ConfigError(
    '--reset-paper: refused in live mode (BOT_MODE=live): the live account is held by the venue and cannot be reset by the bot, ' +
      'and a live data dir must keep its journal; the flag only starts a fresh paper account (BOT_MODE=paper)',
  );
}

export interface ConfirmIo {
  isTTY: boolean;
  /** Writes the question and resolves with the line typed. */
  ask(question: string): Promise<string>;
}

/** The terminal of this process. */
export function processIo(): ConfirmIo {
  return {
    isTTY: process.stdin.isTTY === true,
    ask: (question) =>
      new Promise<string>((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        rl.question(question, (line) => {
          resolve(line);
          rl.close();
        });
        // Ctrl-D or a closed terminal: no answer, so no reset.
        rl.once('close', () => resolve(''));
      }),
  };
}

/**
 * Resolves true when the reset is confirmed (`--yes`, or RESET typed on a terminal), false when
 * the operator answered anything else; throws ConfigError (exit 2) without a terminal and `--yes`.
 */
export async function confirmReset(dataDir: string, yes: boolean, io: ConfirmIo): Promise<boolean> {
  if (yes) return true;
  if (!io.isTTY) {
    throw new ConfigError(
      '--reset-paper: stdin is not a terminal, so nobody can type the confirmation; add --yes to reset without one ' +
        '(npm start -- --reset-paper --yes)',
    );
  }
  const answer = await io.ask(
    `This starts a fresh paper account in ${dataDir}: the paper venue (balances, open orders, positions, history) and the bot's ` +
      `journal there move to ${dataDir}/archive/.\nType RESET to continue: `,
  );
  return answer.trim() === 'RESET';
}

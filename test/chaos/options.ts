/**
 * Options of a chaos run and the command line of `npm run chaos`:
 *   --seed N       seed of the venue (price walk, fault streams) and of the scenario (default 1)
 *   --cycles N     price cycles to run (default 20)
 *   --minutes M    stop after M minutes even if cycles remain (default: no bound)
 *   --faults on|off  on: dropped write replies, a slow conditional listing, SIGKILLs and
 *                  restarts, OCO legs cancelled at the venue; off: none of these (default on)
 *   --keep         keep the run's directory (the bot's store, venue.json with the venue's orders,
 *                  deals and brackets) for a closer look, and print where it is
 */
export interface ChaosOptions {
  seed: number;
  cycles: number;
  /** Wall-clock bound of the cycles, ms; undefined = none. */
  maxRunMs: number | undefined;
  faults: boolean;
  /** How long the final settlement waits for UNKNOWN orders to resolve, ms. */
  settleUnknownMs: number;
  /** Keep the run's directory instead of deleting it. */
  keep: boolean;
}

export const DEFAULT_OPTIONS: ChaosOptions = { seed: 1, cycles: 20, maxRunMs: undefined, faults: true, settleUnknownMs: 40_000, keep: false };

export class UsageError extends Error {}

function positiveInt(flag: string, v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || !Number.isSafeInteger(Number(v))) throw new UsageError(`${flag} needs a positive integer, got ${JSON.stringify(v ?? '')}`);
  return Number(v);
}

function onOff(flag: string, v: string | undefined): boolean {
  if (v !== 'on' && v !== 'off') throw new UsageError(`${flag} needs on or off, got ${JSON.stringify(v ?? '')}`);
  return v === 'on';
}

/** Parses argv (without node and script). */
export function parseChaosArgs(argv: readonly string[]): ChaosOptions {
  const out: ChaosOptions = { ...DEFAULT_OPTIONS };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--keep') {
      out.keep = true;
      i--;
    } else if (flag === '--seed') out.seed = positiveInt(flag, value);
    else if (flag === '--cycles') out.cycles = positiveInt(flag, value);
    else if (flag === '--minutes') out.maxRunMs = positiveInt(flag, value) * 60_000;
    else if (flag === '--faults') out.faults = onOff(flag, value);
    else throw new UsageError(`unknown flag ${JSON.stringify(flag)}`);
  }
  return out;
}

export const USAGE = 'usage: npm run chaos -- [--seed N] [--cycles N] [--minutes M] [--faults on|off] [--keep]';

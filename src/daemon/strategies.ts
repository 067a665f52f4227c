/**
 * Finding and validating the configured strategy instances. Runs before anything else at start-up
 * and makes no network call, so a bad config stops the daemon before it touches the venue.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { validate as validateCron } from 'node-cron';
import { SystemClock } from '../core/clock.js';
import type { BotConfig } from '../config/index.js';
import { loadStrategies, type LoadedStrategy } from '../strategy-api/host.js';

/** Where strategy modules live: `strategies/` at the project root (source) or inside `dist/` (build). */
export function strategyLoaderPaths(): { dirs: string[]; extensions: string[] } {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  return { dirs: [path.resolve(path.dirname(here), '../../strategies')], extensions: fromSource ? ['.ts', '.js'] : ['.js'] };
}

/**
 * Loads and validates every enabled strategy instance in the sandbox (docs/sandbox.md). Throws
 * ConfigError; makes no network call. An instance past a sandbox bound comes back quarantined.
 */
export async function loadConfiguredStrategies(config: BotConfig, concurrency = 1): Promise<LoadedStrategy[]> {
  const specs = config.strategies.flatMap((s, index) =>
    s.enabled ? [{ index, module: s.module, id: s.id, params: s.params, schedule: s.schedule }] : [],
  );
  const knownMarkets = new Set(Object.keys(config.markets));
  const { memoryMb, loadDeadlineMs } = config.sandbox;
  const bounds = { memoryMb, loadDeadlineMs };
  return loadStrategies(specs, { ...strategyLoaderPaths(), knownMarkets, validateSchedule: validateCron, bounds, clock: new SystemClock(), concurrency });
}

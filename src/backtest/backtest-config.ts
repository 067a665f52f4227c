/**
 * The config a backtest runs, and what its process's environment never holds. Light on purpose:
 * the backtest command checks its config here before the run's worker starts (run-supervisor.ts),
 * without loading the engine in its main thread.
 */
import { loadConfig, type BotConfig } from '../config/index.js';

/** The live venue's keys and links: a backtest holds no secret and reaches no live venue. */
export const LIVE_ONLY_ENV: readonly string[] = ['API_KEY', 'API_SECRET', 'API_BASE_URL', 'RATE_LIMIT_REDIS_URL'];

/** The daemon's own loader and checks, BOT_MODE paper whatever the environment says. */
export function loadBacktestConfig(configFile: string): BotConfig {
  const env: Record<string, string | undefined> = { ...process.env, BOT_CONFIG: configFile, BOT_MODE: 'paper' };
  for (const name of LIVE_ONLY_ENV) delete env[name];
  return loadConfig({ env, cwd: process.cwd() });
}

/**
 * The soak run's configuration: config/bot.json with every job on a one- or few-second schedule
 * and a market that moves ten times a second (months of ticks are not reachable, so the run packs
 * as many ticks, fills and scans as it can into its minutes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeSoakConfig(dir: string): string {
  const file = JSON.parse(readFileSync('config/bot.json', 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  file['jobs'] = { ...file['jobs'], reconcileCron: '* * * * * *', equityCheckCron: '*/2 * * * * *', creditCheckCron: '*/5 * * * * *', flexPullCron: '*/10 * * * * *' };
  for (const s of file['strategies'] as Record<string, unknown>[]) s['schedule'] = '* * * * * *';
  file['paper'] = { ...file['paper'], priceStepMs: 100, volatility: '0.001' };
  const configPath = path.join(dir, 'bot.json');
  writeFileSync(configPath, JSON.stringify(file));
  return configPath;
}

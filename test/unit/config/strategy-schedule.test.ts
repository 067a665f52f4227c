/** A strategy instance's schedule in the config: a cron expression or a candle schedule; anything else names the key. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

function load(schedule: unknown): ReturnType<typeof loadConfig> {
  const cwd = tempDir('v4bot-schedule-config-');
  const strategy = { module: 'ema-cross', id: 'e1', budgetQuote: '100', params: {}, schedule };
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify({ ...validFileConfig(), strategies: [strategy] }));
  return loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json' } });
}

describe('strategies[].schedule', () => {
  it.each(['candle:1m', 'candle:15m', 'candle:1d', '*/10 * * * * *'])('takes %s', (schedule) => {
    expect(load(schedule).strategies[0]?.schedule).toBe(schedule);
  });

  it.each(['candle:2h', 'candle:', 'candles:1h', 'every minute'])('refuses %s, naming the key', (schedule) => {
    const err = configErrorOf(() => load(schedule));
    expect(err.message).toContain('strategies[0].schedule');
    expect(err.message).toContain('or one of candle:1m, candle:5m, candle:15m, candle:1h, candle:4h, candle:1d');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, type BotConfig } from '../../../src/config/index.js';
import { checkSpaceAgainstSchema } from '../../../src/optimize/space-schema.js';
import { SpaceError, parseSpace } from '../../../src/optimize/space.js';

const CONFIG_TEXT = readFileSync('config/bot.json', 'utf8');

function config(): BotConfig {
  return loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd(), configText: CONFIG_TEXT });
}

async function refusal(params: unknown, strategy = 'grid1'): Promise<string> {
  const err = await checkSpaceAgainstSchema(config(), parseSpace(JSON.stringify({ strategy, params }))).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SpaceError);
  return (err as Error).message;
}

describe('a space checked against the strategy schema', () => {
  it('accepts the shipped example: every value passes the grid strategy schema', async () => {
    await expect(checkSpaceAgainstSchema(config(), parseSpace(readFileSync('config/optimize-space.json', 'utf8')))).resolves.toBeUndefined();
  });

  it('refuses a param the schema does not have', async () => {
    expect(await refusal({ levels: { values: [2] }, gridWidth: { values: [1, 2] } })).toMatch(/param gridWidth: unknown param \(not in the strategy's schema\)/);
  });

  it('refuses a value outside the schema bounds, in the schema own words', async () => {
    expect(await refusal({ levels: { range: [18, 22], step: 2 } })).toMatch(/param levels: the value 22 is refused by the strategy's schema: expected an integer ≥ 1 and ≤ 20/);
  });

  it('refuses a decimal param given as JSON numbers (a money value travels as a string)', async () => {
    expect(await refusal({ spacingPct: { values: [0.5] } })).toMatch(/param spacingPct: the value 0.5 is refused .* not a JSON number/);
  });

  it('refuses a value of the wrong type', async () => {
    expect(await refusal({ postOnly: { values: [true, 'no'] } })).toMatch(/param postOnly: the value "no" is refused by the strategy's schema/);
  });

  it('refuses a strategy id the config does not have, listing those it has', async () => {
    expect(await refusal({ levels: { values: [2] } }, 'grid9')).toMatch(/"strategy": "grid9" is not an instance id of the config \(grid1, trend1, treasury\)/);
  });
});

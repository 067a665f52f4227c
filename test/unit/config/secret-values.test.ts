import { describe, expect, it } from 'vitest';
import { Secret, scrubSecretEnv, secretValues } from '../../../src/config/index.js';

describe('secret values of a config', () => {
  it('lists the API key and secret and the Redis URL with its password, as written and decoded', () => {
    const values = secretValues({
      api: { baseUrl: 'https://venue.example', apiKey: new Secret('key-abc'), apiSecret: new Secret('sec-xyz') },
      rateLimitRedisUrl: new Secret('redis://default:p%40ss@cache:6379'),
    });
    expect(values).toEqual(['key-abc', 'sec-xyz', 'redis://default:p%40ss@cache:6379', 'p%40ss', 'p@ss']);
  });

  it('lists nothing in paper mode without Redis', () => {
    expect(secretValues({ api: null, rateLimitRedisUrl: null })).toEqual([]);
  });

  it('removes the secret variables from an environment and keeps the rest', () => {
    const env: Record<string, string | undefined> = { API_KEY: 'k', API_SECRET: 's', RATE_LIMIT_REDIS_URL: 'redis://x', BOT_MODE: 'live', PATH: '/bin' };
    scrubSecretEnv(env);
    expect(env).toEqual({ BOT_MODE: 'live', PATH: '/bin' });
  });
});

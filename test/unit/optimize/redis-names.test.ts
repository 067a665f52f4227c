/**
 * The BullMQ executor's names (src/optimize/redis-queue.ts) and the worker command's flags
 * (src/cli/optimize-worker.ts): a password never shows, names are valid for BullMQ (no `:`),
 * one study's queue is its own, and a bad flag is refused naming it.
 */
import { describe, expect, it } from 'vitest';
import { parseWorkerArgs } from '../../../src/cli/optimize-worker.js';
import { ConfigError } from '../../../src/core/errors.js';
import { maskRedisUrl, queueName, trialJobId } from '../../../src/optimize/redis-queue.js';

describe('optimize over Redis: names and flags', () => {
  it('masks the password of a Redis URL and keeps the rest', () => {
    expect(maskRedisUrl('redis://worker:s3cret-pass@redis.internal:6380/2')).toBe('redis://worker:***@redis.internal:6380/2');
    expect(maskRedisUrl('rediss://:s3cret-pass@10.0.0.5:6379')).not.toContain('s3cret');
    expect(maskRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(maskRedisUrl('not a url s3cret')).not.toContain('s3cret');
  });

  it('derives queue names and job ids BullMQ accepts, distinct per study', () => {
    const names = ['grid tuning: 2024', 'grid tuning_ 2024', 'a/b'].map(queueName);
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n).toMatch(/^v4-bot-optimize-[A-Za-z0-9_.-]+$/);
    expect(trialJobId('s1', 'abc')).not.toBe(trialJobId('s2', 'abc'));
    expect(trialJobId('s1', 'abc')).toBe(trialJobId('s1', 'abc'));
    expect(trialJobId('grid tuning: 2024', 'abc')).not.toContain(':');
  });

  it('parses the worker flags and refuses bad ones without showing a password', () => {
    expect(parseWorkerArgs(['--redis', 'redis://127.0.0.1:6379', '--concurrency', '3', '--stalled-interval', '1000'])).toEqual({
      url: 'redis://127.0.0.1:6379',
      logLevel: 'info',
      concurrency: 3,
      stalledIntervalMs: 1000,
    });
    expect(() => parseWorkerArgs(['--concurrency', '2'])).toThrow(/--redis: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => parseWorkerArgs(['--redis', 'redis://h:1', '--concurrency', '0'])).toThrow(ConfigError);
    expect(() => parseWorkerArgs(['--redis', 'http://u:s3cret@h:1'])).toThrow(/found "http:\/\/u:\*\*\*@h:1/);
    expect(() => parseWorkerArgs(['--redis', 'redis://h:1', '--workers', '2'])).toThrow(/arguments: expected one of/);
  });
});

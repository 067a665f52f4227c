import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/observability/logger.js';
import { AmbiguousOutcomeError } from '../../../src/core/errors.js';

function collector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString('utf8').split('\n').filter((l) => l.length > 0));
      cb();
    },
  });
  return { stream, lines };
}

describe('logger redaction', () => {
  it('censors keys, secrets, signatures and payloads at any of the first three levels', () => {
    const { stream, lines } = collector();
    const log = createLogger({ level: 'trace', destination: stream });
    const secret = 'S3CRET-value-123';
    log.info({ apiKey: secret, apiSecret: secret, nested: { signature: secret, payload: secret } }, 'one');
    log.info({ req: { headers: { 'x-txc-apikey': secret, 'X-TXC-SIGNATURE': secret } } }, 'two');
    log.info({ config: { API_SECRET: secret, apiKey: secret } }, 'three');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain(secret);
    expect(lines[0]).toContain('[redacted]');
  });

  it('serialises errors as name, code, message and safe context only', () => {
    const { stream, lines } = collector();
    const log = createLogger({ level: 'info', destination: stream });
    const err = new AmbiguousOutcomeError('/api/v4/order/bulk', ['b-1', 'b-2'], 'timeout after 500 ms');
    Object.assign(err, { request: { headers: { 'X-TXC-APIKEY': 'leaky' } } });
    log.error({ err }, 'placement failed');
    const parsed = JSON.parse(lines[0] ?? '{}') as { err: Record<string, unknown> };
    expect(parsed.err['code']).toBe('OUTCOME_AMBIGUOUS');
    expect(parsed.err['context']).toEqual({ endpoint: '/api/v4/order/bulk', clientOrderIds: ['b-1', 'b-2'] });
    expect(lines[0]).not.toContain('leaky');
  });
});

describe('logger scrubs the configured secret values wherever they appear', () => {
  const secret = 'S3cr3t-"quoted"\\value/+=';
  const redisPassword = 'p@ss:w/rd';
  const secrets = [secret, 'API-KEY-0123', redisPassword, `redis://default:${encodeURIComponent(redisPassword)}@cache.internal:6379`];

  it('in the message, under any key at any depth, in arrays and in error messages and stacks', () => {
    const { stream, lines } = collector();
    const log = createLogger({ level: 'info', destination: stream, secrets });
    log.info(`read .env.live: API_SECRET=${secret}`);
    log.info({ a: { b: { c: { d: [`x${secret}y`] } } }, note: 'API-KEY-0123' }, 'nested');
    log.error({ err: new Error(`refused key API-KEY-0123 with ${secret}`) }, 'failed');
    log.warn({ url: `redis://default:${encodeURIComponent(redisPassword)}@cache.internal:6379` }, `pw ${redisPassword}`);
    log.child({ instance: 'g1' }).info({ leaked: secret }, 'from a child logger');
    expect(lines).toHaveLength(5);
    const all = lines.join('\n');
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), 'API-KEY-0123', redisPassword, encodeURIComponent(redisPassword)]) {
      expect(all).not.toContain(form);
    }
    expect(lines.map((l) => JSON.parse(l) as unknown)).toHaveLength(5);
  });

  it('leaves lines without secrets as they are', () => {
    const { stream, lines } = collector();
    createLogger({ level: 'info', destination: stream, secrets }).info({ n: 1 }, 'plain');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ n: 1, msg: 'plain' });
  });
});

/** The console's credentials: constant-time token comparison, header and cookie parsing, the per-run token file. */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bearerToken, cookieValue, readTokenFile, sessionValue, tokensEqual, writeTokenFile } from '../../../src/console/auth.js';
import { tempDir } from '../../support/temp-dir.js';

describe('tokensEqual', () => {
  it('is true only for the same token', () => {
    expect(tokensEqual('abc-token-123456789012345', 'abc-token-123456789012345')).toBe(true);
    expect(tokensEqual('abc-token-123456789012345', 'abc-token-123456789012346')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
  });

  it('compares tokens of different lengths without throwing (digests of equal length go to timingSafeEqual)', () => {
    // crypto.timingSafeEqual throws on buffers of different lengths: comparing raw tokens would.
    expect(() => tokensEqual('short', 'a-much-longer-token-value-here')).not.toThrow();
    expect(tokensEqual('short', 'a-much-longer-token-value-here')).toBe(false);
    expect(tokensEqual('a-much-longer-token-value-here', 'a-much-longer-token-value-here\u0000')).toBe(false);
  });
});

describe('headers and cookies', () => {
  it('reads a bearer token and nothing else', () => {
    expect(bearerToken('Bearer abc.DEF-123')).toBe('abc.DEF-123');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });

  it('finds one cookie among several', () => {
    expect(cookieValue('a=1; v4bot_session=xyz; b=2', 'v4bot_session')).toBe('xyz');
    expect(cookieValue('v4bot_sessionx=1', 'v4bot_session')).toBeNull();
    expect(cookieValue(undefined, 'v4bot_session')).toBeNull();
  });

  it('derives the session value from the token without containing it', () => {
    const token = 'the-token-0123456789abcdef';
    expect(sessionValue(token)).not.toContain(token);
    expect(sessionValue(token)).toBe(sessionValue(token));
    expect(sessionValue(token)).not.toBe(sessionValue(`${token}x`));
  });
});

describe('per-run token file', () => {
  it('is written 0600 and read back', () => {
    const dir = tempDir('v4bot-token-');
    const file = writeTokenFile(dir, 'run-token-value');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readTokenFile(dir)).toBe('run-token-value');
    expect(readTokenFile(tempDir('v4bot-token-'))).toBeNull();
  });
});

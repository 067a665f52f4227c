/**
 * Credentials of the console (docs/dashboard.md): one bearer token per daemon run, either the
 * configured `BOT_CONTROL_TOKEN` or, without one, a random token the daemon writes to
 * `<data dir>/control-token` (mode 0600: readable only by the user the daemon runs as, who is the
 * one `npm run ctl` runs as). The dashboard holds a session cookie derived from the token.
 *
 * Every comparison goes through `tokensEqual`: both sides are hashed first so the constant-time
 * compare runs over equal lengths and the token's length does not leak either.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';

/** File of the per-run token inside the data dir. */
export const TOKEN_FILE = 'control-token';
/** The dashboard's session cookie (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'v4bot_session';

/** Constant-time equality of two secrets of any length (SHA-256 digests compared with timingSafeEqual). */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m === null ? null : (m[1] as string);
}

/** The session cookie's value for a token: derived, so the cookie never carries the token itself. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('v4bot dashboard session').digest('base64url');
}

/** One cookie of a `Cookie` header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** `Set-Cookie` for the dashboard session: script cannot read it and no other site's request carries it. */
export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${sessionValue(token)}; HttpOnly; SameSite=Strict; Path=/`;
}

/** A fresh random token (192 bits). */
export function newRunToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenFilePath(dataDir: string): string {
  return path.join(dataDir, TOKEN_FILE);
}

/** Writes the per-run token 0600 (a temporary file renamed into place, so no reader sees half a token). */
export function writeTokenFile(dataDir: string, token: string): string {
  const file = tokenFilePath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}

/** The per-run token of the daemon using `dataDir`, or null when there is none. */
export function readTokenFile(dataDir: string): string | null {
  try {
    const t = readFileSync(tokenFilePath(dataDir), 'utf8').trim();
    return t === '' ? null : t;
  } catch {
    return null;
  }
}

/** Removes the per-run token (at stop, or when a configured token replaces it). */
export function removeTokenFile(dataDir: string): void {
  rmSync(tokenFilePath(dataDir), { force: true });
}

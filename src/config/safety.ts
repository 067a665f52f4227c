/**
 * Operator-safety checks on a loaded configuration (docs/configuration.md › Safety checks):
 *
 * - an env file readable by group or others: refused in live mode (it holds the API secret),
 *   a warning in paper mode when it holds a secret anyway (the repository's paper env files hold
 *   none and are checked out readable: no warning for those);
 * - a data dir readable by group or others: a warning (the store holds the account's orders);
 * - credentials in `API_BASE_URL` (`https://user:pass@host`): refused, never echoed;
 * - plain `http://` to a host other than loopback in live mode: a warning (signed requests and the
 *   key header travel in clear).
 *
 * Refusals are `ConfigError`s (exit 2); warnings are returned as data with a stable `code` the
 * daemon logs as a structured field.
 */
import { statSync } from 'node:fs';
import { configError } from './errors.js';

export interface ConfigWarning {
  code: 'ENV_FILE_PERMISSIONS' | 'DATA_DIR_PERMISSIONS' | 'INSECURE_API_URL' | 'UNKNOWN_ENV_KEY';
  message: string;
  /** File, directory or host the warning is about. */
  subject: string;
}

/** Permission bits of a path, or null when it does not exist. */
function modeOf(file: string): number | null {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return null;
  }
}

const octal = (mode: number): string => `0${mode.toString(8).padStart(3, '0')}`;

/** Env file readable by group or others: refused in live mode, a warning in paper mode if it holds a secret. */
export function checkEnvFile(file: string | null, mode: 'paper' | 'live', holdsSecret: boolean): ConfigWarning[] {
  if (file === null || process.platform === 'win32' || (mode === 'paper' && !holdsSecret)) return [];
  const bits = modeOf(file);
  if (bits === null || (bits & 0o077) === 0) return [];
  if (mode === 'live') {
    throw configError('environment', [
      { key: 'ENV_FILE', expected: `an env file only its owner can read (run: chmod 600 ${file})`, found: `${file} with mode ${octal(bits)}` },
    ]);
  }
  return [{ code: 'ENV_FILE_PERMISSIONS', subject: file, message: `env file ${file} has mode ${octal(bits)}: readable by others; run chmod 600 ${file}` }];
}

/** Data dir readable by group or others (the store creates it 0700). */
export function checkDataDir(dir: string): ConfigWarning[] {
  if (process.platform === 'win32') return [];
  const bits = modeOf(dir);
  if (bits === null || (bits & 0o077) === 0) return [];
  return [{ code: 'DATA_DIR_PERMISSIONS', subject: dir, message: `data dir ${dir} has mode ${octal(bits)}: readable by others; run chmod 700 ${dir}` }];
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Credentials in the venue URL are refused; plain http to a remote host in live mode is a warning. */
export function checkApiBaseUrl(url: string | undefined, mode: 'paper' | 'live'): ConfigWarning[] {
  if (url === undefined) return [];
  const u = new URL(url);
  if (u.username !== '' || u.password !== '') {
    throw configError('environment', [
      { key: 'API_BASE_URL', expected: 'a URL without credentials (no user:password@; the key and secret go in API_KEY and API_SECRET)', found: 'a URL with credentials (hidden)' },
    ]);
  }
  if (mode !== 'live' || u.protocol !== 'http:' || LOOPBACK.test(u.hostname)) return [];
  return [{ code: 'INSECURE_API_URL', subject: u.host, message: `API_BASE_URL uses plain http to ${u.host}: signed requests travel unencrypted; use https` }];
}

/**
 * The env file: `ENV_FILE`, else `<cwd>/.env`, else (when the command asks for it) the paper
 * fallback `config/paper.env`. Shared by `loadConfig` and the commands' light settings reader
 * (src/config/command-settings.ts); free of the schemas.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { configError } from './problems.js';

export interface LoadConfigOptions {
  /** The process environment (not modified). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved against. */
  cwd: string;
  /**
   * Env file read instead when no `ENV_FILE` is named and `<cwd>/.env` does not exist (the
   * commands pass `PAPER_ENV_FALLBACK`): paper mode only, so it is skipped when the environment
   * asks for live mode, and ignored when the file itself says live.
   */
  fallbackEnvFile?: string;
  /**
   * The config file's text, read elsewhere (an optimisation trial carries it to workers that have
   * no copy): parsed instead of reading `BOT_CONFIG`, which still names it in messages.
   */
  configText?: string;
}

export interface EnvFileRead {
  vars: Record<string, string>;
  file: string | null;
  fallback: boolean;
}

/** The paper fallback when it applies (no live mode asked for, the file exists and says paper), else nothing. */
function readFallback(options: LoadConfigOptions): EnvFileRead {
  const none = { vars: {}, file: null, fallback: false };
  const asked = options.env['BOT_MODE'];
  if (options.fallbackEnvFile === undefined || (asked !== undefined && asked !== '' && asked !== 'paper')) return none;
  const file = path.resolve(options.cwd, options.fallbackEnvFile);
  let vars: Record<string, string>;
  try {
    vars = parseDotenv(readFileSync(file, 'utf8'));
  } catch {
    return none;
  }
  return vars['BOT_MODE'] === undefined || vars['BOT_MODE'] === 'paper' ? { vars, file, fallback: true } : none;
}

export function readEnvFile(options: LoadConfigOptions): EnvFileRead {
  const named = options.env['ENV_FILE'];
  const explicit = named !== undefined && named !== '';
  const file = path.resolve(options.cwd, explicit ? named : '.env');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A missing default .env is normal (everything may come from the environment, or the paper
    // fallback); a missing file the operator named is a mistake worth stopping for.
    if (!explicit && code === 'ENOENT') return readFallback(options);
    throw configError('environment', [{ key: 'ENV_FILE', expected: 'a readable env file', found: `${JSON.stringify(named ?? '.env')} (${code ?? 'unreadable'})` }]);
  }
  return { vars: parseDotenv(text), file, fallback: false };
}


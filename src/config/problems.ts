/**
 * One `ConfigError` listing refused keys: `<source>: <key>: expected <what>, found <what>`. Free
 * of the schemas, so a command that reads only a few environment settings
 * (src/config/command-settings.ts) refuses in the same words without loading zod.
 */
import { ConfigError } from '../core/errors.js';

/** One refused key. */
export interface ConfigProblem {
  /** Dotted path, e.g. `strategies[0].params.levels`. */
  key: string;
  expected: string;
  found: string;
}

/** One ConfigError listing every problem; `source` is the file path or `environment`. */
export function configError(source: string, problems: readonly ConfigProblem[]): ConfigError {
  const lines = problems.map((p) => `${source}: ${p.key}: expected ${p.expected}, found ${p.found}`);
  return new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`, {
    source,
    keys: problems.map((p) => p.key),
  });
}

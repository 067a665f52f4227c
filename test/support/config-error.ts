/** The ConfigError `fn` throws; anything else (or nothing) fails the test. */
import { ConfigError } from '../../src/core/errors.js';

export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

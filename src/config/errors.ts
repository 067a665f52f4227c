/**
 * Turns zod issues into one `ConfigError` whose message names each key, the expected value and
 * what was found, e.g. `config/bot.json: risk.maxNotionalPerOrderQuote: expected a decimal
 * string > 0, found "-5"`. Values of secret keys are never echoed.
 */
import type { z } from 'zod';
import { SECRET_ENV_KEYS } from './schema.js';
import { showValue } from '../core/show.js';
import type { ConfigProblem } from './problems.js';

export { configError, type ConfigProblem } from './problems.js';

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out === '' ? '(root)' : out;
}

/** A short, safe description of a found value. */
export function describeFound(value: unknown, key: string): string {
  if (value === undefined) return 'nothing (the key is missing)';
  const last = key.split(/[.[]/).pop() ?? key;
  if (SECRET_ENV_KEYS.has(last) || /secret|apikey|password|token/i.test(last)) return 'a value (hidden)';
  return showValue(value);
}

function describeExpected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_type':
      return issue.message.startsWith('Invalid input') ? `a value of type ${issue.expected}` : issue.message;
    default:
      return issue.message.replace(/^Invalid input: /, '');
  }
}

/** Flattens zod issues to problems, one per key (unknown keys are listed one by one). */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], pathPrefix: readonly PropertyKey[] = []): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = [...pathPrefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        out.push({ key: formatPath([...path, k]), expected: 'no such key (check the spelling; unknown keys are refused)', found: 'an unknown key' });
      }
      continue;
    }
    if (issue.code === 'invalid_union') {
      out.push({ key: formatPath(path), expected: issue.message, found: describeFound(issue.input, formatPath(path)) });
      continue;
    }
    const key = formatPath(path);
    out.push({ key, expected: describeExpected(issue), found: describeFound(issue.input, key) });
  }
  return out;
}

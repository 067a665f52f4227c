/**
 * zod issues as messages a strategy author can act on: the key, what was expected and what was
 * found, e.g. `intents[0].orders[0].price: expected a decimal string such as "0.01" or a
 * Decimal, found 12`. The found value is read at the issue's path in the checked value itself, so
 * a wrong discriminator names the `type` that was given, and a missing key says so.
 */
import type { z } from 'zod';
import { showValue } from '../core/show.js';

/** `root[0].orders[1].price` from `['0', 'orders', 1, 'price']` (numbers as indexes). */
export function keyOf(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : `${out}.${String(p)}`), root);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** A short description of a found value. */
export const showFound = showValue;

const article = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_union':
      if ('options' in issue && Array.isArray(issue.options)) return `one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')}`;
      return issue.message;
    case 'invalid_type':
      return article(issue.expected);
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message.replace(/^Invalid input: /, '').replace(/^Too (small|big): expected /, '');
  }
}

/** One line per issue: `<key>: expected <what>, found <value>`. */
export function describeIssue(issue: z.core.$ZodIssue, root: string, value: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    return `${keyOf(root, [...issue.path, issue.keys[0] ?? ''])}: expected no such key (unknown keys are refused), found an unknown key`;
  }
  return `${keyOf(root, issue.path)}: expected ${expectedOf(issue)}, found ${showFound(valueAt(value, issue.path))}`;
}

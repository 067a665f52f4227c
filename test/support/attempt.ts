/** Failing on purpose inside a store transaction, and reading a failure as part of an answer. */

/** Throws `boom`: a step that makes its transaction fail. */
export const boom = (): never => {
  throw new Error('boom');
};

/** `fn`'s answer, or what it threw (a failing transaction's throw is part of the answer). */
export function attempt(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (err) {
    return `threw ${(err as Error).message}`;
  }
}

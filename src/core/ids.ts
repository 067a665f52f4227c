/**
 * Identifiers. Venue ids are integers on the wire; any id that is not a safe integer is refused
 * rather than silently losing digits. Client order ids follow the venue's charset and length.
 */

/** Letters, digits, dash, dot, underscore; 1..32 characters (docs/live-service.md §3). */
export const CLIENT_ORDER_ID_RE = /^[A-Za-z0-9._-]{1,32}$/;
export const CLIENT_ORDER_ID_MAX = 32;

export function isValidClientOrderId(id: string): boolean {
  return CLIENT_ORDER_ID_RE.test(id);
}

/** True when `v` is an integer id that survived JSON parsing without losing digits. */
export function isSafeId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * A deterministic client order id: `<prefix>-<sequence in base 36>`. The prefix is the strategy
 * instance's short tag; the sequence is reserved in the store in the same transaction that
 * journals the order, so an id is never reused.
 */
export function makeClientOrderId(prefix: string, sequence: number): string {
  if (!/^[A-Za-z0-9._]{1,20}$/.test(prefix)) throw new RangeError(`bad clientOrderId prefix: ${JSON.stringify(prefix)}`);
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError('bad clientOrderId sequence');
  const id = `${prefix}-${sequence.toString(36)}`;
  if (id.length > CLIENT_ORDER_ID_MAX) throw new RangeError('clientOrderId longer than 32 characters');
  return id;
}

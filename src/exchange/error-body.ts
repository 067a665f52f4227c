/**
 * Reading venue error objects. Only a well-formed error counts as the venue's word: a refusal is
 * acted on (an order is marked rejected, a read stops retrying), so an object that merely sits
 * where an error would be (`{}`, `code: null`, `code: "x"`) is unreadable, never a refusal.
 *
 * Shapes the service sends (docs/api-v4.md §2.10, docs/live-service.md §1, 6, 7):
 * - private `{"code":30,"message":"Validation failed","errors":{"amount":["Amount is less than 0.001"]}}`
 *   (`errors` may be absent: `{"code":0,"message":"No active loan at the moment"}`)
 * - public `{"success":false,"message":"api.futures.unavailable","errors":[]}` (or `params: []`)
 * - flat 422 `{"market":["The market field is required."]}`, 500 `{"error":["Internal server error."]}`
 * - gateway `{"message":"..."}`
 */
import type { FieldErrors } from '../core/errors.js';
import { isRecord } from '../core/records.js';

/** A venue error object, in any of the shapes the service sends. */
export interface VenueErrorBody {
  /** The venue code; null for the public, flat and gateway shapes, which carry none. */
  code: number | null;
  message: string;
  fieldErrors: FieldErrors;
}

/** Venue messages are short; cap them so an HTML page or an echoed body never lands in an error. */
export function safeText(s: string): string {
  const oneLine = s.replace(/\s+/g, ' ').trim();
  return oneLine.length > 160 ? `${oneLine.slice(0, 160)}…` : oneLine;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((m) => typeof m === 'string');
}

/** `{param: [messages]}`; undefined when any value is not an array of strings. */
function fieldErrorsOf(v: Record<string, unknown>): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [k, msgs] of Object.entries(v)) {
    if (!isStringArray(msgs)) return undefined;
    out[k] = msgs.map(safeText);
  }
  return out;
}

/** The `errors` member: absent, null, `[]` (public shape) or `{param: [messages]}`. */
function errorsMember(v: unknown): FieldErrors | undefined {
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return {};
  return isRecord(v) ? fieldErrorsOf(v) : undefined;
}

/**
 * Private shape `{code, message, errors?}`: an integer code and a string message. Private
 * endpoints (and bulk items) answer only in this shape, so on them nothing else is a refusal.
 */
export function readPrivateError(value: unknown): VenueErrorBody | undefined {
  if (!isRecord(value) || !Number.isSafeInteger(value['code']) || typeof value['message'] !== 'string') return undefined;
  const fieldErrors = errorsMember(value['errors']);
  if (fieldErrors === undefined) return undefined;
  return { code: value['code'] as number, message: safeText(value['message']), fieldErrors };
}

/** Public `{success:false, message, params|errors}` and gateway `{message}`: no code. */
function readCodeless(value: Record<string, unknown>): VenueErrorBody | undefined {
  if ('success' in value && value['success'] !== false) return undefined;
  if (typeof value['message'] !== 'string') return undefined;
  const fieldErrors = errorsMember(value['errors']);
  if (fieldErrors === undefined) return undefined;
  return { code: null, message: safeText(value['message']), fieldErrors };
}

/** Flat `{field: [msg]}`: at least one field, every value a list of strings. */
function readFlat(value: Record<string, unknown>): VenueErrorBody | undefined {
  const flat = fieldErrorsOf(value);
  const first = flat === undefined ? undefined : Object.values(flat)[0];
  if (flat === undefined || first === undefined) return undefined;
  return { code: null, message: first[0] ?? '', fieldErrors: flat };
}

/**
 * Reads a top-level venue error object in any shape the service sends; `undefined` when the value
 * is not one (not an object, or an object that is garbled).
 */
export function readErrorBody(value: unknown): VenueErrorBody | undefined {
  if (!isRecord(value)) return undefined;
  if ('code' in value) return readPrivateError(value);
  if ('success' in value || 'message' in value) return readCodeless(value);
  return readFlat(value);
}

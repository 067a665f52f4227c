/**
 * Error answers of the simulated venue. A handler throws `SimHttpError`; the server turns it into
 * the exact status and body. Bodies follow docs/api-v4.md §2.10 and the docs/live-service.md texts: every
 * private error carries `errors` (empty when no parameter is to blame), as the spec's Error object
 * has it, even where the live service leaves it out (the client tolerates both).
 */

/** Parameter name → messages, as the venue sends them. */
export type FieldMessages = Record<string, string[]>;

/** An HTTP answer that is not a success: status plus the body (JSON object or raw text). */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** When set, the body is sent as this raw text with this content type instead of JSON. */
    readonly raw?: { text: string; contentType: string },
  ) {
    super(`sim http ${status}`);
  }
}

/** The 400 body of the credit line without a loan (docs/live-service.md §6). */
export function noActiveLoan(): { code: number; message: string; errors: FieldMessages } {
  return { code: 0, message: 'No active loan at the moment', errors: {} };
}

/** 422 request validation (codes 30..37, docs/live-service.md §3). */
export function validation(errors: FieldMessages = {}, code = 30): SimHttpError {
  return new SimHttpError(422, { code, message: 'Validation failed', errors });
}

/** 400 business rule ("Inner validation failed": 1, 2, 10, 11, 13). */
export function business(code: number, errors: FieldMessages = {}): SimHttpError {
  return new SimHttpError(400, { code, message: 'Inner validation failed', errors });
}

export const UNAUTHORIZED_TEXT = 'Unauthorized request.';
export const KEY_DISABLED_TEXT = 'This action is unauthorized. Enable your key in API settings';

/** 401 bad signature. */
export function badSignature(): SimHttpError {
  return new SimHttpError(401, { code: 0, message: UNAUTHORIZED_TEXT, errors: {} });
}

/** 401 unknown or disabled key. */
export function unknownKey(): SimHttpError {
  return new SimHttpError(401, { code: 0, message: KEY_DISABLED_TEXT, errors: {} });
}

/** 400 code 9: body differs from the decoded payload (or `request` differs from the path). */
export function invalidPayload(): SimHttpError {
  return new SimHttpError(400, { code: 9, message: 'Invalid payload.', errors: {} });
}

/** 429 JSON: the nonce was not accepted. Distinct from the gateway's non-JSON rate limit. */
export function nonceRejected(): SimHttpError {
  return new SimHttpError(429, { code: 0, errors: {}, message: 'Too many requests.' });
}

/** 429 with a non-JSON body, as a gateway rate limit answers. */
export function rateLimited(): SimHttpError {
  return new SimHttpError(429, null, {
    text: '<html><head><title>429 Too Many Requests</title></head><body><h1>429 Too Many Requests</h1></body></html>',
    contentType: 'text/html',
  });
}

/** 400 for a request target that does not parse as a URL (public error shape: the path is unknown). */
export function badRequest(): SimHttpError {
  return new SimHttpError(400, { success: false, message: 'Bad request', params: [] });
}

/** 404 for an unknown path (public error shape). */
export function notFound(): SimHttpError {
  return new SimHttpError(404, { success: false, message: 'Not found', params: [] });
}

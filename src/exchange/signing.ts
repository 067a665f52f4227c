/**
 * Request signing (docs/live-service.md §1). Pure: no clock, no I/O, so it is tested byte for
 * byte against an HMAC computed independently.
 *
 * body      = compact JSON of the endpoint fields plus `request` (the path) and `nonce` (string)
 * payload   = standard Base64 (with padding) of exactly that body string
 * signature = lowercase hex HMAC-SHA512, key = secret (UTF-8), message = the Base64 string
 *
 * The bytes sent must equal the decoded payload, so the caller sends `body` exactly as returned.
 */
import { createHmac } from 'node:crypto';

export interface SignInput {
  apiKey: string;
  apiSecret: string;
  /** Full path including the `/api/v4` prefix, e.g. `/api/v4/order/bulk`. */
  path: string;
  /** Endpoint fields (already in wire form: strings for money, integers for ids). */
  fields: Readonly<Record<string, unknown>>;
  /** The nonce, sent as a string. */
  nonce: number;
  /** Window mode: adds `"nonceWindow": true` to the signed body. */
  nonceWindow: boolean;
}

export interface SignedRequest {
  /** The exact body to send (UTF-8). */
  body: string;
  headers: {
    'Content-Type': 'application/json';
    'X-TXC-APIKEY': string;
    'X-TXC-PAYLOAD': string;
    'X-TXC-SIGNATURE': string;
  };
}

/** Builds the signed body string: endpoint fields first, then `request`, `nonce` (and the window flag). */
export function buildBody(path: string, fields: Readonly<Record<string, unknown>>, nonce: number, nonceWindow: boolean): string {
  const body: Record<string, unknown> = { ...fields, request: path, nonce: String(nonce) };
  if (nonceWindow) body['nonceWindow'] = true;
  return JSON.stringify(body);
}

export function signPayload(apiSecret: string, payloadBase64: string): string {
  return createHmac('sha512', Buffer.from(apiSecret, 'utf8')).update(payloadBase64, 'utf8').digest('hex');
}

export function sign(input: SignInput): SignedRequest {
  const body = buildBody(input.path, input.fields, input.nonce, input.nonceWindow);
  const payload = Buffer.from(body, 'utf8').toString('base64');
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-TXC-APIKEY': input.apiKey,
      'X-TXC-PAYLOAD': payload,
      'X-TXC-SIGNATURE': signPayload(input.apiSecret, payload),
    },
  };
}

/**
 * Venue replies that look like failures but carry a meaning (docs/live-service.md §4, 5, 6). One table,
 * consulted by client.ts before the generic classification (errors.ts), each row with the reply
 * as the venue sends it. A quirk matches only a well-formed error body (or, for the path 404, the
 * status alone, since that reply comes from the venue's router, not the API).
 */
import type { EndpointName } from './endpoints.js';
import { readErrorBody, tryParseJson, type VenueErrorBody } from './errors.js';
import type { HttpResponse } from './transport.js';

export type QuirkMeaning =
  /** creditLine: no loan is active, a normal state (`{ active: false }`). */
  | 'no_active_loan'
  /** creditLine: the feature is not enabled for this key (an `AuthError`, a human must act). */
  | 'credit_line_disabled'
  /** executedHistory with a clientOrderId: no deal for that order yet (an empty list). */
  | 'order_history_not_found'
  /** conditionalOrders on the spec path: the live service serves the other path. */
  | 'conditional_path_missing';

export interface Quirk {
  endpoint: EndpointName;
  statuses: readonly number[];
  /** Whether the body (read as a venue error, when it is one) is this quirk's. */
  body: (err: VenueErrorBody | undefined) => boolean;
  meaning: QuirkMeaning;
  /** The reply as the venue sends it. */
  sample: { status: number; body: string };
}

export const QUIRKS: readonly Quirk[] = [
  {
    endpoint: 'creditLine',
    statuses: [400],
    body: (e) => e?.code === 0 && /no active loan/i.test(e.message),
    meaning: 'no_active_loan',
    sample: { status: 400, body: '{"code":0,"message":"No active loan at the moment"}' },
  },
  {
    endpoint: 'creditLine',
    statuses: [404],
    body: (e) => e?.code === 0,
    meaning: 'credit_line_disabled',
    sample: { status: 404, body: '{"code":0,"message":""}' },
  },
  {
    endpoint: 'executedHistory',
    // 422 per docs/live-service.md §4; 400 is accepted too, as some deployments answer validation with it.
    statuses: [422, 400],
    body: (e) => e?.code === 30 && e.fieldErrors['orderHistory'] !== undefined,
    meaning: 'order_history_not_found',
    sample: { status: 422, body: '{"code":30,"message":"Validation failed","errors":{"orderHistory":["OrderHistory was not found."]}}' },
  },
  {
    endpoint: 'conditionalOrders',
    statuses: [404],
    body: () => true,
    meaning: 'conditional_path_missing',
    sample: { status: 404, body: '<html><head><title>404 Not Found</title></head></html>' },
  },
];

/** The quirk this reply is, if any. */
export function quirkOf(endpoint: EndpointName, res: Pick<HttpResponse, 'status' | 'body'>): QuirkMeaning | undefined {
  const rows = QUIRKS.filter((q) => q.endpoint === endpoint && q.statuses.includes(res.status));
  if (rows.length === 0) return undefined;
  const parsed = tryParseJson(res.body);
  const err = parsed.ok ? readErrorBody(parsed.value) : undefined;
  return rows.find((q) => q.body(err))?.meaning;
}

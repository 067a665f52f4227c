/**
 * Who may use the admin routes. They move prices and mint funded keys, so a web page the
 * operator happens to open must not reach them: a loopback peer is not enough, because a
 * browser on the same machine is one. Refused are
 * - a peer off the loopback interface;
 * - a `Host` that is not a loopback name (DNS rebinding: a page's own name resolving to 127.0.0.1);
 * - an `Origin` other than the simulator's own (a cross-site `fetch` or form post);
 * - a write (POST) that is not `Content-Type: application/json` (a form or `text/plain` post is
 *   a "simple" request a browser sends cross-site without asking first).
 * Tests and scripts (no `Origin`, JSON bodies, `127.0.0.1` or `localhost`) are unaffected.
 */
import type { IncomingMessage } from 'node:http';

/** True for a peer address on the loopback interface. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i;

/** True for a `Host` header naming the loopback interface (127.0.0.1, localhost, [::1]; any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host);
}

/** A refused admin request: status and the reason sent back. */
export interface AdminRefusal {
  status: number;
  error: string;
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Why `req` may not use the admin routes, or undefined when it may. */
export function adminRefusal(req: IncomingMessage): AdminRefusal | undefined {
  if (!isLoopback(req.socket.remoteAddress)) return { status: 403, error: 'admin routes are loopback only' };
  const host = req.headers.host;
  if (!isLoopbackHost(host)) return { status: 403, error: 'admin routes need a loopback Host' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host ?? ''}`.toLowerCase()) {
    return { status: 403, error: 'cross-origin admin requests are refused' };
  }
  if (req.method === 'POST' && mediaType(req) !== 'application/json') {
    return { status: 415, error: 'admin writes need Content-Type: application/json' };
  }
  return undefined;
}

/**
 * HTTP over node:http(s) with a keep-alive agent, a connect timeout and a response timeout.
 * Returns status + body text; classification into typed errors happens in errors.ts.
 *
 * Network failures become safe errors built here: never the library error (it carries the
 * request, headers and body). `sent` tells whether any byte may have reached the venue: a
 * connect failure on a fresh socket is provably "not sent", everything later is not.
 */
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../core/clock.js';
import { TransientError } from '../core/errors.js';

export interface TransportOptions {
  baseUrl: string;
  clock: Clock;
  /** Time to establish the TCP (and TLS) connection, ms. */
  connectMs: number;
  /** Time from sending until the whole response body arrived, ms. */
  responseMs: number;
  /** Largest response body accepted, bytes. Default 16 MiB. */
  maxBodyBytes?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path including `/api/v4`, and query string if any. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  body: string;
  contentType: string;
  /** Server `Date` header in ms, when present (for clock-skew checks). */
  dateMs: number | undefined;
  /** `Retry-After` in ms, when present. */
  retryAfterMs: number | undefined;
}

/** A network-level failure. `sent === false` means the request provably never left. */
export class TransportError extends TransientError {
  constructor(
    kind: 'timeout' | 'network',
    message: string,
    readonly sent: boolean,
  ) {
    super(kind, message, { sent });
  }
}

export class Transport {
  private readonly agent: http.Agent;
  private readonly mod: typeof http | typeof https;
  private readonly base: URL;
  private readonly basePath: string;

  constructor(private readonly options: TransportOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new RangeError('baseUrl is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError('baseUrl must be http: or https:');
    this.base = url;
    // Either regional address, with or without a trailing slash; a path prefix before /api/v4 is kept.
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.mod = url.protocol === 'https:' ? https : http;
    // Idle sockets are dropped after 4 s, before the common 5 s server keep-alive timeout, so a
    // write is rarely sent on a socket the server is closing (that reset would be ambiguous).
    const agentOptions = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' as const, timeout: 4000 };
    this.agent = url.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  request(req: HttpRequest): Promise<HttpResponse> {
    const { clock, connectMs, responseMs } = this.options;
    const maxBody = this.options.maxBodyBytes ?? 16 * 1024 * 1024;
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      let sent = false;
      let connectTimer: ReturnType<Clock['setTimeout']> | undefined;
      let responseTimer: ReturnType<Clock['setTimeout']> | undefined;
      const finish = (err: TransportError | undefined, res?: HttpResponse): void => {
        if (settled) return;
        settled = true;
        if (connectTimer !== undefined) clock.clearTimeout(connectTimer);
        if (responseTimer !== undefined) clock.clearTimeout(responseTimer);
        if (err !== undefined) reject(err);
        else resolve(res!);
      };
      const headers: Record<string, string> = { ...req.headers, Accept: 'application/json' };
      if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body, 'utf8'));
      const r = this.mod.request({
        protocol: this.base.protocol,
        hostname: this.base.hostname,
        port: this.base.port === '' ? undefined : Number(this.base.port),
        method: req.method,
        path: this.basePath + req.path,
        headers,
        agent: this.agent,
      });
      const startResponseTimer = (): void => {
        sent = true;
        if (connectTimer !== undefined) clock.clearTimeout(connectTimer);
        connectTimer = undefined;
        responseTimer = clock.setTimeout(() => {
          finish(new TransportError('timeout', `no complete response within ${responseMs} ms`, true));
          r.destroy();
        }, responseMs);
      };
      r.on('socket', (socket) => {
        // A reused keep-alive socket is already connected; a fresh one must connect in time.
        const connecting = (socket as { connecting?: boolean }).connecting === true;
        if (!connecting) {
          startResponseTimer();
          return;
        }
        connectTimer = clock.setTimeout(() => {
          finish(new TransportError('timeout', `connect not established within ${connectMs} ms`, false));
          r.destroy();
        }, connectMs);
        socket.once(this.base.protocol === 'https:' ? 'secureConnect' : 'connect', startResponseTimer);
      });
      r.on('error', (e: NodeJS.ErrnoException) => {
        // Only the errno code crosses this boundary, never the library error object.
        const code = typeof e.code === 'string' ? e.code : 'unknown';
        finish(new TransportError('network', `network error ${code}${sent ? '' : ' before sending'}`, sent));
      });
      r.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBody) {
            finish(new TransportError('network', `response larger than ${maxBody} bytes`, true));
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('aborted', () => finish(new TransportError('network', 'response aborted', true)));
        res.on('error', () => finish(new TransportError('network', 'response stream error', true)));
        res.on('end', () => {
          const date = res.headers.date;
          const dateMs = date === undefined ? undefined : new Date(date).getTime();
          finish(undefined, {
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: res.headers['content-type'] ?? '',
            dateMs: dateMs !== undefined && Number.isFinite(dateMs) ? dateMs : undefined,
            retryAfterMs: parseRetryAfter(res.headers['retry-after']),
          });
        });
      });
      r.end(req.body);
    });
  }

  /** Closes idle keep-alive sockets and refuses further reuse. */
  close(): void {
    this.agent.destroy();
  }
}

function parseRetryAfter(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d{1,6}$/.test(v.trim())) return undefined;
  return Number(v.trim()) * 1000;
}

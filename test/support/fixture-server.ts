/**
 * A scriptable HTTP server on 127.0.0.1 for client tests: per-path queues of replies (or
 * handlers), a default per path, and a record of every request with its headers and raw body.
 *
 * A reply can be JSON, raw text, delayed, never answered (`hang`) or cut off (`destroy`: the
 * socket is reset without a response), so every transport outcome is reproducible.
 *
 * In a test file: `const server = useFixtureServer();` at file (or describe) level.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path with the query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body exactly as received. */
  body: string;
  /** `performance.now()` when the request's body was fully received. */
  receivedAt: number;
}

export interface Reply {
  status?: number;
  /** Serialised with JSON.stringify. */
  json?: unknown;
  /** Sent as is (non-JSON bodies). */
  raw?: string;
  headers?: Record<string, string>;
  /** Wait this long (real ms) before answering. */
  delayMs?: number;
  /** Never answer (the client must time out). */
  hang?: boolean;
  /** Reset the connection instead of answering. */
  destroy?: boolean;
}

export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;
type Script = Reply | Handler;

export class FixtureServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queues = new Map<string, Script[]>();
  private readonly defaults = new Map<string, Script>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: http.Server) {}

  /** A listening server; in a test file, `useFixtureServer()` sets one up for every test. */
  static async start(): Promise<FixtureServer> {
    return FixtureServer.create().listen();
  }

  /** A server that is not listening yet (`listen` binds it). */
  static create(): FixtureServer {
    const server = http.createServer({ keepAlive: true });
    const fixture = new FixtureServer(server);
    server.on('connection', (s) => {
      fixture.sockets.add(s);
      s.on('close', () => fixture.sockets.delete(s));
    });
    server.on('request', (req, res) => fixture.handle(req, res));
    return fixture;
  }

  /** Binds an ephemeral loopback port. */
  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Queues replies for `path`, used once each in order (then the default applies). */
  enqueue(path: string, ...scripts: Script[]): this {
    const q = this.queues.get(path) ?? [];
    q.push(...scripts);
    this.queues.set(path, q);
    return this;
  }

  /** The reply for `path` when its queue is empty. */
  setDefault(path: string, script: Script): this {
    this.defaults.set(path, script);
    return this;
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Parsed JSON bodies of the requests to `path`. */
  bodiesTo(path: string): Record<string, unknown>[] {
    return this.requestsTo(path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  reset(): void {
    this.requests.length = 0;
    this.queues.clear();
    this.defaults.clear();
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path: url.split('?')[0] ?? url,
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: performance.now(),
      };
      this.requests.push(rec);
      const script = this.queues.get(rec.path)?.shift() ?? this.defaults.get(rec.path);
      void this.respond(rec, script, res);
    });
  }

  private async respond(rec: RecordedRequest, script: Script | undefined, res: http.ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      reply = script === undefined ? { status: 404, raw: 'no fixture' } : typeof script === 'function' ? await script(rec) : script;
    } catch {
      reply = { status: 500, raw: 'fixture handler threw' };
    }
    if (reply.hang === true) return;
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      // Real time on purpose: the client under test waits on real sockets and timeouts.
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.timers.delete(t);
          resolve();
        }, reply.delayMs);
        this.timers.add(t);
      });
    }
    if (reply.destroy === true) {
      res.socket?.destroy();
      return;
    }
    const body = reply.raw ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    const type = reply.raw !== undefined ? 'text/html' : 'application/json';
    if (res.destroyed) return;
    res.writeHead(reply.status ?? 200, { 'Content-Type': type, ...reply.headers });
    res.end(body);
  }
}

/**
 * The fixture server for every test of this file (or of the describe it is called in): call it at
 * suite level. It listens before the first test, is emptied (requests, queues, defaults) before
 * each test and closed after the last. A client made in the file's own `beforeAll` sees its url.
 */
export function useFixtureServer(): FixtureServer {
  const server = FixtureServer.create();
  beforeAll(async () => {
    await server.listen();
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    await server.close();
  });
  return server;
}

/**
 * A loopback HTTP proxy in front of a venue (the simulator) that records what the venue saw:
 * each request's path, arrival time and reply status. Shared by every process of a test, so a
 * budget can be checked over everything that reached the venue.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  path: string;
  /** Epoch ms (`CountingProxy.now()`) when the request's body had arrived. */
  at: number;
  status: number;
}

export class CountingProxy {
  /** Epoch ms with sub-ms resolution, comparable across processes on one host. */
  static now(): number {
    return performance.timeOrigin + performance.now();
  }

  readonly hits: Hit[] = [];
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  private constructor(
    private readonly server: http.Server,
    private readonly target: URL,
  ) {}

  static async start(targetUrl: string): Promise<CountingProxy> {
    const server = http.createServer({ keepAlive: true });
    const proxy = new CountingProxy(server, new URL(targetUrl));
    server.on('request', (req, res) => proxy.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Hits on `path` (all paths when omitted). */
  to(path?: string): Hit[] {
    return path === undefined ? this.hits : this.hits.filter((h) => h.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = CountingProxy.now();
      const path = (req.url ?? '/').split('?')[0]!;
      const out = http.request(
        { host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers: req.headers, agent: this.agent },
        (reply) => {
          this.hits.push({ path, at, status: reply.statusCode ?? 0 });
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  }
}

/** Most hits in any sliding window of `windowMs` (half-open, as the venue counts). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let from = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[from]! >= windowMs) from++;
    max = Math.max(max, i - from + 1);
  }
  return max;
}

/**
 * A local stand-in for both notification receivers: a webhook endpoint (`/hook`) and the
 * Telegram Bot API (`/bot<token>/sendMessage`). Every request is recorded (path, headers, raw
 * body, parsed JSON); replies come from a per-path script (status and JSON, or `hang` to never
 * answer), then the default (200).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  json: Record<string, unknown>;
}

export type Reply = { status: number; json?: unknown; headers?: Record<string, string> } | { hang: true };

export interface Receivers {
  url: string;
  requests: Recorded[];
  /** Requests to a path (exact match). */
  at(path: string): Recorded[];
  /** Queues replies for a path, used in order before the default. */
  script(path: string, ...replies: Reply[]): void;
  close(): Promise<void>;
}

const ok = (path: string): unknown => (path.startsWith('/bot') ? { ok: true, result: { message_id: 1 } } : { ok: true });

export async function startReceivers(): Promise<Receivers> {
  const requests: Recorded[] = [];
  const scripts = new Map<string, Reply[]>();
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as raw only
      }
      requests.push({ path, headers: req.headers, raw, json });
      const reply = scripts.get(path)?.shift() ?? { status: 200, json: ok(path) };
      if ('hang' in reply) return void hanging.push(res);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    at: (path) => requests.filter((r) => r.path === path),
    script: (path, ...replies) => scripts.set(path, [...(scripts.get(path) ?? []), ...replies]),
    close: () =>
      new Promise<void>((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

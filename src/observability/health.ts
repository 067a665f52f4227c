/**
 * `/healthz` and `/metrics`, on 127.0.0.1 unless the daemon binds elsewhere (`host`; then `admit`
 * decides who may read, src/console/http.ts): the daemon's state is not for the network. The
 * operator console's routes (`routes`) share the server.
 * `/healthz` answers 200 while the daemon is running normally and 503 while starting, stopping
 * or degraded (`degradedReasons`: halted, every strategy quarantined, reconciliation failing or
 * stale, a rate-limit pool blocked too long, the request queue's store down or a second signer,
 * balance changes the books do not explain),
 * so a supervisor can alert on the status code alone; `reasons` in the JSON body says why.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback names only (127.0.0.1, localhost, [::1]; any port): binding to 127.0.0.1 does not stop
 * a web page whose own name resolves to 127.0.0.1 (DNS rebinding) from reading the daemon's
 * state through the browser; its requests carry that name as `Host`.
 */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i;

/** The request queue's part of `/healthz` (the client's `requestQueueHealth()`). */
export interface RequestQueueReport {
  /** Where the rate-limit budget lives: this process, or Redis shared by every process on the key. */
  store: 'local' | 'redis';
  storeUp: boolean;
  /** Clock time the store became unreachable, or null. */
  storeDownSinceMs: number | null;
  /** Nonce refusals suggest another process signs with the same API key. */
  nonceCollisionSuspected: boolean;
}

/** Why `/healthz` is degraded: a machine-readable code and a sentence for the operator. */
export interface HealthReason {
  code:
    | 'trading_halted'
    | 'all_strategies_quarantined'
    | 'reconcile_failing'
    | 'reconcile_stale'
    | 'rate_limit_blocked'
    | 'rate_limit_store_down'
    | 'nonce_collision_suspected'
    | 'books_unexplained';
  detail: string;
}

/** What `degradedReasons` judges; gathered by the daemon (src/daemon/observability.ts). */
export interface HealthInputs {
  nowMs: number;
  tradingState: string;
  tradingStateReason: string;
  /** Ids of the configured (enabled) strategy instances and of those quarantined. */
  strategies: readonly string[];
  quarantined: readonly string[];
  reconcile: { ok: boolean; lastSuccessMs: number | null; lastError: string | null };
  /** A last success older than this (ms) is stale: a few reconcile intervals. */
  reconcileStaleAfterMs: number;
  /** Pool → since when it has been paused or refusing calls without a break (src/observability/limiter-watch.ts). */
  blockedPools: Readonly<Record<string, number>>;
  limiterBlockedMaxMs: number;
  requestQueue?: RequestQueueReport;
  /** The last balance audit (docs/balance-audit.md): when it ran and the assets whose change the books did not explain. */
  audit?: { atMs: number; unexplained: readonly { asset: string; difference: string }[] } | null;
}

/** Degraded until an audit finds the books explain every balance again (the next one, as the reported window is closed). */
function auditReasons(i: HealthInputs): HealthReason[] {
  const a = i.audit;
  if (a == null || a.unexplained.length === 0) return [];
  const which = a.unexplained.map((u) => `${u.asset} ${u.difference}`).join(', ');
  return [{ code: 'books_unexplained', detail: `the balance audit at ${new Date(a.atMs).toISOString()} found balance changes the books do not explain: ${which}` }];
}

function reconcileReasons(i: HealthInputs): HealthReason[] {
  const out: HealthReason[] = [];
  if (!i.reconcile.ok) out.push({ code: 'reconcile_failing', detail: `the last reconciliation failed: ${i.reconcile.lastError ?? 'unknown error'}` });
  const last = i.reconcile.lastSuccessMs;
  if (last !== null && i.nowMs - last > i.reconcileStaleAfterMs) {
    out.push({ code: 'reconcile_stale', detail: `last successful reconciliation ${i.nowMs - last} ms ago (limit ${i.reconcileStaleAfterMs} ms)` });
  }
  return out;
}

function queueReasons(i: HealthInputs): HealthReason[] {
  const out: HealthReason[] = [];
  for (const [pool, since] of Object.entries(i.blockedPools).sort()) {
    const ms = i.nowMs - since;
    if (ms > i.limiterBlockedMaxMs) out.push({ code: 'rate_limit_blocked', detail: `pool ${pool} paused or refusing calls for ${ms} ms (limit ${i.limiterBlockedMaxMs} ms)` });
  }
  const q = i.requestQueue;
  if (q !== undefined && !q.storeUp) out.push({ code: 'rate_limit_store_down', detail: `the ${q.store} rate-limit store is unreachable: no request is sent` });
  if (q?.nonceCollisionSuspected === true) out.push({ code: 'nonce_collision_suspected', detail: 'nonce refusals suggest another process signs with the same API key' });
  return out;
}

/** Every reason the running daemon is degraded; empty when healthy. */
export function degradedReasons(i: HealthInputs): HealthReason[] {
  const out: HealthReason[] = [];
  if (i.tradingState === 'HALTED') out.push({ code: 'trading_halted', detail: `trading is HALTED: ${i.tradingStateReason}` });
  if (i.strategies.length > 0 && i.strategies.every((id) => i.quarantined.includes(id))) {
    out.push({ code: 'all_strategies_quarantined', detail: `every strategy instance is quarantined (${i.strategies.join(', ')})` });
  }
  return [...out, ...reconcileReasons(i), ...queueReasons(i), ...auditReasons(i)];
}

/** The body of `/healthz`. */
export interface HealthReport {
  status: 'starting' | 'ok' | 'degraded' | 'stopping';
  /** Why the status is `degraded` (empty otherwise); each reason once. */
  reasons: HealthReason[];
  mode: 'paper' | 'live';
  tradingState: string;
  reconcile: { ok: boolean; lastSuccessMs: number | null; lastError: string | null };
  /** Job → end of its last run, ms (null before the first). */
  jobs: Record<string, { lastRunMs: number | null; lastOutcome: string | null; skipped: number }>;
  unknownOrders: number;
  quarantined: string[];
  /** Venue clock minus local clock, ms (null before the first reply with a `Date` header). */
  clockSkewMs: number | null;
  /** The request queue: rate-limit store and the second-signer watch. */
  requestQueue?: RequestQueueReport;
  nowMs: number;
}

export interface HealthServerOptions {
  /** 0 picks a free port (tests); the daemon never calls this when BOT_HTTP_PORT is 0. */
  port: number;
  health: () => HealthReport;
  metrics: () => Promise<string>;
  metricsContentType: string;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Who may read `/healthz` and `/metrics` (default: a loopback `Host`). */
  admit?: (req: IncomingMessage) => boolean;
  /** More routes (the operator console, src/console/http.ts): true when it answered the request. */
  routes?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

function admitted(options: HealthServerOptions, req: IncomingMessage): boolean {
  return options.admit?.(req) ?? LOOPBACK_HOST.test(req.headers.host ?? '');
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (options.routes?.(req, res) === true) return;
    if (!admitted(options, req)) {
      res.writeHead(403).end();
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    if (url === '/healthz') {
      let report: HealthReport;
      try {
        report = options.health();
      } catch {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"degraded","reasons":[{"code":"health_report_failed","detail":"the health report could not be built"}]}');
        return;
      }
      res.writeHead(report.status === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(report));
      return;
    }
    if (url === '/metrics') {
      options.metrics().then(
        (text) => res.writeHead(200, { 'content-type': options.metricsContentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

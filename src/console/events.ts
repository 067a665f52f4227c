/**
 * Live updates for the dashboard: server-sent events (`GET /api/events`). Each event carries the
 * whole state (`event: state`). A push happens soon after a fill, an order or leg change, a
 * trading-state change, an alert, a pause or quarantine change or a control action (a change
 * detector looks every second; fills, trading-state changes and actions push at once), and at
 * least every 15 s. Pushes within 250 ms are coalesced. Nothing is computed while no page listens.
 *
 * The number of clients is bounded; a client that does not read (its socket buffer grows past a
 * bound) is dropped rather than letting memory grow; a closed connection is removed at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';

export const MAX_SSE_CLIENTS = 16;
const COALESCE_MS = 250;
const DETECT_EVERY_MS = 1_000;
const HEARTBEAT_MS = 15_000;
/** Bytes buffered for one client before it counts as stalled and is dropped. */
const MAX_BUFFERED = 4 * 1024 * 1024;

export interface FeedDeps {
  clock: Clock;
  logger: Logger;
  /** The state document, serialised. */
  state(): Promise<string>;
  /** Changes whenever something shown changed (cheap: runs every second while a page listens). */
  fingerprint(): string;
}

export class EventFeed {
  private readonly clients = new Set<ServerResponse>();
  private pending: TimerHandle | null = null;
  private detector: TimerHandle | null = null;
  private lastFingerprint = '';
  private lastPushMs = 0;
  private pushing = false;
  private closed = false;

  constructor(private readonly deps: FeedDeps) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** Takes an SSE request; answers 503 when the bound is reached. */
  attach(req: IncomingMessage, res: ServerResponse): void {
    if (this.closed || this.clients.size >= MAX_SSE_CLIENTS) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '10' }).end(JSON.stringify({ error: 'too_many_clients', message: `at most ${MAX_SSE_CLIENTS} live dashboards` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write('retry: 3000\n\n');
    this.clients.add(res);
    const drop = (): void => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stopDetector();
    };
    req.on('close', drop);
    res.on('close', drop);
    res.on('error', drop);
    this.startDetector();
    this.changed();
  }

  /** Something changed: push soon (coalesced). */
  changed(): void {
    if (this.closed || this.clients.size === 0 || this.pending !== null) return;
    this.pending = this.deps.clock.setTimeout(() => {
      this.pending = null;
      void this.push();
    }, COALESCE_MS);
  }

  private startDetector(): void {
    if (this.detector !== null) return;
    const loop = (): void => {
      this.detector = null;
      if (this.closed || this.clients.size === 0) return;
      this.detect();
      this.detector = this.deps.clock.setTimeout(loop, DETECT_EVERY_MS);
    };
    this.detector = this.deps.clock.setTimeout(loop, DETECT_EVERY_MS);
  }

  private stopDetector(): void {
    if (this.detector !== null) this.deps.clock.clearTimeout(this.detector);
    this.detector = null;
  }

  private detect(): void {
    let fp: string;
    try {
      fp = this.deps.fingerprint();
    } catch (err) {
      this.deps.logger.warn({ err }, 'dashboard change detector failed');
      return;
    }
    const stale = this.deps.clock.now() - this.lastPushMs >= HEARTBEAT_MS;
    if (fp !== this.lastFingerprint || stale) {
      this.lastFingerprint = fp;
      this.changed();
    }
  }

  private async push(): Promise<void> {
    if (this.pushing) return this.changed();
    this.pushing = true;
    try {
      const data = await this.deps.state();
      this.lastPushMs = this.deps.clock.now();
      const frame = `event: state\ndata: ${data}\n\n`;
      for (const res of this.clients) {
        if (res.writableLength > MAX_BUFFERED) {
          this.deps.logger.warn('dashboard client not reading: dropped');
          this.clients.delete(res);
          res.destroy();
          continue;
        }
        res.write(frame);
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'dashboard state push failed');
    } finally {
      this.pushing = false;
    }
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.closed = true;
    this.stopDetector();
    if (this.pending !== null) this.deps.clock.clearTimeout(this.pending);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}

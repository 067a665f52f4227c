/**
 * Fault injection per endpoint, reproducible from the seed: each endpoint draws from its own
 * seeded stream, one fixed set of draws per request, so the same seed and request sequence give
 * the same faults. Settings for a path override those of `*`.
 */
import type { EndpointFaults, FaultOptions } from './options.js';
import { Prng } from './prng.js';

/** What to do with one request. */
export interface FaultPlan {
  latencyMs: number;
  /** Answer 5xx before applying. */
  error5xx: boolean;
  /** Answer non-JSON 429 before applying. */
  rate429: boolean;
  /** After applying: drop the response this way. */
  drop: 'reset' | 'hang' | undefined;
  /** After applying: answer a broken body. */
  malformed: boolean;
}

export const NO_FAULT: FaultPlan = { latencyMs: 0, error5xx: false, rate429: false, drop: undefined, malformed: false };

export class Faults {
  private streams = new Map<string, Prng>();

  constructor(
    private readonly seed: number,
    private config: FaultOptions = {},
  ) {}

  set(config: FaultOptions): void {
    this.config = config;
    this.streams = new Map();
  }

  get current(): FaultOptions {
    return this.config;
  }

  plan(path: string): FaultPlan {
    const f: EndpointFaults | undefined = this.config[path] ?? this.config['*'];
    if (f === undefined) return NO_FAULT;
    let prng = this.streams.get(path);
    if (prng === undefined) {
      prng = Prng.derive(this.seed, `faults:${path}`);
      this.streams.set(path, prng);
    }
    // Always draw all four, so one setting does not shift the others' sequences.
    const d5 = prng.next();
    const d429 = prng.next();
    const dDrop = prng.next();
    const dMal = prng.next();
    const error5xx = d5 < (f.error5xx ?? 0);
    const rate429 = !error5xx && d429 < (f.rate429 ?? 0);
    const drop = f.dropAfterApply !== undefined && dDrop < f.dropAfterApply.rate ? f.dropAfterApply.mode : undefined;
    return { latencyMs: f.latencyMs ?? 0, error5xx, rate429, drop, malformed: drop === undefined && dMal < (f.malformed ?? 0) };
  }

  /** A broken 200 body: alternately truncated JSON and non-JSON garbage. */
  brokenBody(path: string, json: string): string {
    const prng = this.streams.get(path) ?? Prng.derive(this.seed, `faults:${path}`);
    return prng.next() < 0.5 ? json.slice(0, Math.max(1, Math.floor(json.length / 2))) : '<html>garbage\u0000';
  }
}

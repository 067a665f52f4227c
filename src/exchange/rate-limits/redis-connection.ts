/**
 * Bottleneck's ioredis connection, with one repair. Bottleneck 2.19.5 recovers from a lost
 * settings key (Redis restarted empty, or the keys expired) and from a forgotten client by
 * matching the Lua error text exactly (`SETTINGS_KEY_NOT_FOUND`, `UNKNOWN_CLIENT`); Redis 7
 * prefixes such errors with `ERR `, so the recovery never runs and the limiter stays broken
 * (SGrondin/bottleneck issues 205, 212, 219). The callback of every script call gets the
 * prefix removed from those two errors, and nothing else changes.
 */
import Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';

const SENTINEL_RE = /^ERR (SETTINGS_KEY_NOT_FOUND|UNKNOWN_CLIENT)$/;

type ScriptCallback = (err: Error | null, replies: unknown) => void;
type ScriptFn = (...args: unknown[]) => unknown;

/** The runtime members of Bottleneck's IORedisConnection this file relies on (untyped upstream). */
interface ConnectionInternals {
  __scriptFn__(name: string): ScriptFn;
  readonly subscriber: Redis;
}

function repaired(fn: ScriptFn): ScriptFn {
  return (...args: unknown[]) => {
    const callback = args.pop() as ScriptCallback;
    return fn(...args, (err: Error | null, replies: unknown) => {
      if (err !== null && SENTINEL_RE.test(err.message)) err.message = err.message.slice(4);
      callback(err, replies);
    });
  };
}

/** Creates the connection the pool limiters share: `client` for commands, a duplicate for pub/sub. */
export function sharedConnection(client: Redis, redisModule: unknown): { connection: Bottleneck.IORedisConnection; subscriber: Redis } {
  const connection = new Bottleneck.IORedisConnection({ client, Redis: redisModule });
  const internals = connection as unknown as ConnectionInternals;
  const scriptFn = internals.__scriptFn__.bind(connection);
  internals.__scriptFn__ = (name: string) => repaired(scriptFn(name));
  return { connection, subscriber: internals.subscriber };
}

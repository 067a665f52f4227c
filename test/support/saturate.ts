/**
 * Keeps `inFlight` calls outstanding until `durationMs` has passed (real time), then waits for
 * the last ones; returns how often each outcome occurred (`ok` or the error's code).
 */
import { errorCode } from '../../src/core/errors.js';

export async function saturate(call: () => Promise<unknown>, durationMs: number, inFlight: number): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  const until = performance.now() + durationMs;
  const lane = async (): Promise<void> => {
    while (performance.now() < until) {
      const code = await call().then(
        () => 'ok',
        (err: unknown) => errorCode(err),
      );
      outcomes[code] = (outcomes[code] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return outcomes;
}

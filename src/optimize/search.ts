/**
 * Which param assignments a study tries. Grid: the cartesian product of the domains, the last
 * param varying fastest (the space file's order), so the order is the same on every run. Random:
 * `trials` distinct points of that same grid, drawn with the project's seeded PRNG
 * (src/core/random.ts), so a seed replays the same draws on every machine.
 */
import { seededRandom } from '../core/random.js';
import { MAX_GRID_POINTS, SpaceError, domainValues } from './space.js';
import type { ParamValue, ParamValues, SearchSpace } from './types.js';

function domains(space: SearchSpace): { name: string; values: ParamValue[] }[] {
  return space.params.map((p) => ({ name: p.name, values: domainValues(p.domain) }));
}

function pointAt(ds: readonly { name: string; values: ParamValue[] }[], digits: readonly number[]): ParamValues {
  return Object.fromEntries(ds.map((d, i) => [d.name, d.values[digits[i] as number] as ParamValue]));
}

/** Every point of the grid, in order. Refuses a grid over MAX_GRID_POINTS. */
export function gridPoints(space: SearchSpace, cap = MAX_GRID_POINTS): ParamValues[] {
  const ds = domains(space);
  const total = ds.reduce((n, d) => n * d.values.length, 1);
  if (total > cap) {
    const sizes = ds.map((d) => `${d.name} ${d.values.length}`).join(' × ');
    throw new SpaceError(`the grid has ${total} points (${sizes}), more than the cap of ${cap}: use coarser steps, or --search random --trials N`);
  }
  const out: ParamValues[] = [];
  const digits = ds.map(() => 0);
  for (let n = 0; n < total; n++) {
    out.push(pointAt(ds, digits));
    // Odometer: the last param turns fastest.
    for (let i = ds.length - 1; i >= 0; i--) {
      digits[i] = (digits[i] as number) + 1;
      if ((digits[i] as number) < (ds[i] as { values: ParamValue[] }).values.length) break;
      digits[i] = 0;
    }
  }
  return out;
}

/**
 * `trials` distinct grid points drawn from `seed`, in draw order (at most the grid's size: a
 * smaller grid gives all its points). Each param's index comes from the stream in param order;
 * a point drawn before is drawn again.
 */
export function randomPoints(space: SearchSpace, trials: number, seed: number): ParamValues[] {
  const ds = domains(space);
  const total = ds.reduce((n, d) => n * d.values.length, 1);
  const want = Math.min(trials, total);
  const next = seededRandom(seed);
  const seen = new Set<string>();
  const out: ParamValues[] = [];
  while (out.length < want) {
    const digits = ds.map((d) => Math.floor(next() * d.values.length));
    const id = digits.join(',');
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(pointAt(ds, digits));
  }
  return out;
}

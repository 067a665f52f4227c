/**
 * The space file (docs/optimize.md § The space file): which strategy instance is tuned and how each
 * of its params is searched. Parsed strictly and exactly: decimals are read from strings, or from a
 * JSON number's shortest form (what the file says), never through arithmetic on doubles. Every
 * problem is a `SpaceError` naming the param and saying why.
 *
 * The param values themselves are checked against the strategy's own schema afterwards
 * (space-schema.ts): this file knows the shapes, not the strategy.
 */
import { Decimal, decFromJsonNumber, isDecimalString, toWire } from '../core/decimal.js';
import type { ParamDomain, ParamValue, SearchSpace } from './types.js';

/** Largest number of points one param's domain may hold. */
export const MAX_DOMAIN_POINTS = 1_000;
/** Largest grid (product of the domains' sizes) a grid search runs. */
export const MAX_GRID_POINTS = 10_000;
/** Significant digits of a log-spaced decimal value (the end points stay exact). */
export const LOG_SIGNIFICANT_DIGITS = 6;

/** A space file the optimiser cannot use; the message names the param (or the key) and why. */
export class SpaceError extends Error {
  constructor(message: string) {
    super(`space file: ${message}`);
    this.name = 'SpaceError';
  }
}

const TOP_KEYS = ['strategy', 'params', 'description'];
const DOMAIN_KEYS = ['range', 'step', 'log', 'steps', 'values'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unknownKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const extra = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw new SpaceError(`${where}: unknown key ${JSON.stringify(extra[0])} (allowed: ${allowed.join(', ')})`);
}

/** A bound or step as an exact Decimal, and whether the file gave it as a whole JSON number. */
function exact(param: string, what: string, v: unknown): { d: Decimal; wholeNumber: boolean } {
  if (typeof v === 'string' && isDecimalString(v)) return { d: new Decimal(v), wholeNumber: false };
  if (typeof v === 'number' && Number.isFinite(v)) return { d: decFromJsonNumber(v), wholeNumber: Number.isInteger(v) };
  throw new SpaceError(`param ${param}: ${what} must be a decimal string such as "0.5" or a number, found ${JSON.stringify(v) ?? 'nothing'}`);
}

function pair(param: string, key: string, v: unknown): [unknown, unknown] {
  if (!Array.isArray(v) || v.length !== 2) throw new SpaceError(`param ${param}: "${key}" must be [min, max], found ${JSON.stringify(v)}`);
  return [v[0], v[1]];
}

function rangeDomain(param: string, spec: Record<string, unknown>): ParamDomain {
  const [rawMin, rawMax] = pair(param, 'range', spec['range']);
  const min = exact(param, 'range min', rawMin);
  const max = exact(param, 'range max', rawMax);
  if (spec['step'] === undefined) throw new SpaceError(`param ${param}: a range needs "step"`);
  const step = exact(param, 'step', spec['step']);
  if (!min.d.lt(max.d)) throw new SpaceError(`param ${param}: empty or inverted range [${toWire(min.d)}, ${toWire(max.d)}] (min must be below max; use "values" for one value)`);
  if (!step.d.gt(0)) throw new SpaceError(`param ${param}: step must be > 0, found ${toWire(step.d)}`);
  const count = max.d.minus(min.d).div(step.d);
  if (!count.isInteger()) {
    throw new SpaceError(`param ${param}: step ${toWire(step.d)} does not divide the range [${toWire(min.d)}, ${toWire(max.d)}] into whole steps`);
  }
  if (count.plus(1).gt(MAX_DOMAIN_POINTS)) throw new SpaceError(`param ${param}: the range has ${count.plus(1).toFixed()} points, more than ${MAX_DOMAIN_POINTS}`);
  const integer = min.wholeNumber && max.wholeNumber && step.wholeNumber;
  return { kind: 'range', min: toWire(min.d), max: toWire(max.d), step: toWire(step.d), integer };
}

function logDomain(param: string, spec: Record<string, unknown>): ParamDomain {
  const [rawMin, rawMax] = pair(param, 'log', spec['log']);
  const min = exact(param, 'log min', rawMin);
  const max = exact(param, 'log max', rawMax);
  if (!min.d.gt(0)) throw new SpaceError(`param ${param}: a log range needs min > 0, found ${toWire(min.d)}`);
  if (!min.d.lt(max.d)) throw new SpaceError(`param ${param}: empty or inverted log range [${toWire(min.d)}, ${toWire(max.d)}] (min must be below max)`);
  const steps = spec['steps'];
  if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 2 || steps > MAX_DOMAIN_POINTS) {
    throw new SpaceError(`param ${param}: "steps" must be a whole number from 2 to ${MAX_DOMAIN_POINTS} (points from min to max), found ${JSON.stringify(steps) ?? 'nothing'}`);
  }
  return { kind: 'log', min: toWire(min.d), max: toWire(max.d), steps, integer: min.wholeNumber && max.wholeNumber };
}

function valuesDomain(param: string, spec: Record<string, unknown>): ParamDomain {
  const values = spec['values'];
  if (!Array.isArray(values) || values.length === 0) throw new SpaceError(`param ${param}: "values" must be a non-empty array, found ${JSON.stringify(values)}`);
  if (values.length > MAX_DOMAIN_POINTS) throw new SpaceError(`param ${param}: ${values.length} values, more than ${MAX_DOMAIN_POINTS}`);
  const seen = new Set<string>();
  for (const v of values as unknown[]) {
    const ok = typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
    if (!ok) throw new SpaceError(`param ${param}: a value must be a string, a number or a boolean, found ${JSON.stringify(v)}`);
    const id = JSON.stringify(v);
    if (seen.has(id)) throw new SpaceError(`param ${param}: the value ${id} is listed twice`);
    seen.add(id);
  }
  return { kind: 'values', values: values as ParamValue[] };
}

function domainOf(param: string, spec: unknown): ParamDomain {
  if (!isObject(spec)) throw new SpaceError(`param ${param}: expected an object with "range", "log" or "values", found ${JSON.stringify(spec)}`);
  unknownKeys(spec, DOMAIN_KEYS, `param ${param}`);
  const kinds = ['range', 'log', 'values'].filter((k) => spec[k] !== undefined);
  if (kinds.length !== 1) throw new SpaceError(`param ${param}: give exactly one of "range", "log" or "values", found ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`);
  if (kinds[0] === 'range') {
    if (spec['steps'] !== undefined) throw new SpaceError(`param ${param}: "steps" belongs to a log range; a range takes "step"`);
    return rangeDomain(param, spec);
  }
  if (kinds[0] === 'log') {
    if (spec['step'] !== undefined) throw new SpaceError(`param ${param}: a log range takes "steps" (a count), not "step"`);
    return logDomain(param, spec);
  }
  if (spec['step'] !== undefined || spec['steps'] !== undefined) throw new SpaceError(`param ${param}: "values" takes no step`);
  return valuesDomain(param, spec);
}

/** Parses the space file's text. Does not check the strategy (space-schema.ts does). */
export function parseSpace(text: string): SearchSpace {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SpaceError(`not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(raw)) throw new SpaceError('expected a JSON object with "strategy" and "params"');
  unknownKeys(raw, TOP_KEYS, 'top level');
  const strategy = raw['strategy'];
  if (typeof strategy !== 'string' || strategy === '') throw new SpaceError(`"strategy" must name a strategy instance id of the config, found ${JSON.stringify(strategy)}`);
  const params = raw['params'];
  if (!isObject(params) || Object.keys(params).length === 0) throw new SpaceError('"params" must be an object with at least one param');
  return { strategy, params: Object.entries(params).map(([name, spec]) => ({ name, domain: domainOf(name, spec) })) };
}

function logPoint(min: Decimal, max: Decimal, i: number, steps: number): Decimal {
  if (i === 0) return min;
  if (i === steps - 1) return max;
  // min × (max/min)^(i/(steps−1)), computed by Decimal at 60 digits: the same on every machine.
  return min.mul(max.div(min).pow(new Decimal(i).div(steps - 1)));
}

/** The domain's points in order. Integer domains give JSON numbers; decimal ones give decimal strings. */
export function domainValues(domain: ParamDomain): ParamValue[] {
  if (domain.kind === 'values') return [...domain.values];
  const min = new Decimal(domain.min);
  const max = new Decimal(domain.max);
  const out: ParamValue[] = [];
  if (domain.kind === 'range') {
    const step = new Decimal(domain.step);
    for (let v = min; v.lte(max); v = v.plus(step)) out.push(domain.integer ? v.toNumber() : toWire(v));
    return out;
  }
  for (let i = 0; i < domain.steps; i++) {
    const v = logPoint(min, max, i, domain.steps);
    // Integer log domains round to the nearest whole number; points that round together count once.
    const point = domain.integer
      ? v.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).toNumber()
      : toWire(v.toSignificantDigits(LOG_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_EVEN));
    if (!out.includes(point)) out.push(point);
  }
  return out;
}

/** Number of points of the grid (the product of the domains' sizes). */
export function gridSize(space: SearchSpace): number {
  return space.params.reduce((n, p) => n * domainValues(p.domain).length, 1);
}

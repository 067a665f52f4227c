/**
 * Reply mutations for property tests (fast-check), the classes a fuzzer sends: a field dropped,
 * a wrong type, a negative or huge number, an extra item, a garbled error object, a wrong
 * clientOrderId, and whole-body damage (empty, HTML, truncated JSON). Plus the oracles the
 * properties check: what a parsed value may never contain, and when a reply proves a refusal.
 */
import fc from 'fast-check';
import { Decimal } from '../../src/core/decimal.js';
import { MAX_TIME_MS, MIN_TIME_MS } from '../../src/exchange/fields.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = readonly (string | number)[];

export const MUTATION_KINDS = ['drop', 'wrongType', 'negative', 'huge', 'extraItem', 'garbledError', 'wrongClientOrderId'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  /** Picks the node (modulo the number of candidates). */
  at: number;
  /** Picks the replacement (modulo the number of choices). */
  variant: number;
}

/** A fixed seed keeps runs repeatable; FUZZ_SEED explores others. */
export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] ?? 20_240_611);

const WRONG_TYPES: readonly Json[] = [null, true, 0, 12.5, 'x', '', [], {}];
const HUGE_NUMBERS: readonly number[] = [1e308, 2 ** 60, 1e21, Number.MAX_VALUE];
const HUGE_STRINGS: readonly string[] = ['9'.repeat(120), '1e400', '99999999999999999999999999', 'Infinity'];
const GARBLED_ERRORS: readonly Json[] = [
  {},
  { code: null, message: 'Validation failed', errors: {} },
  { code: 'x', message: 'Validation failed', errors: {} },
  { code: 10 },
  { code: 10, message: 5 },
  { code: 10, message: 'Inner validation failed', errors: 'Not enough balance.' },
  'Not enough balance.',
];
const CLIENT_ORDER_IDS: readonly string[] = ['zz-9', '', 'b-0', 'b-1', 'b-2', 'c-2', 'bot-2'];

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every node's path, root first. */
function pathsOf(v: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(v)) v.forEach((c, i) => out.push(...pathsOf(c, [...prefix, i])));
  else if (isObject(v)) for (const [k, c] of Object.entries(v)) out.push(...pathsOf(c, [...prefix, k]));
  return out;
}

function get(root: Json, path: Path): Json | undefined {
  let cur: Json | undefined = root;
  for (const key of path) cur = Array.isArray(cur) ? cur[key as number] : isObject(cur) ? cur[key as string] : undefined;
  return cur;
}

/** Replaces (or with `undefined`, removes) the node at `path`; the root is replaced by returning it. */
function set(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value === undefined ? null : value;
  const parent = get(root, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    if (value === undefined) parent.splice(key as number, 1);
    else parent[key as number] = value;
  } else if (isObject(parent)) {
    if (value === undefined) delete parent[key as string];
    else parent[key as string] = value;
  }
  return root;
}

const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;
const isNumeric = (v: Json | undefined): boolean => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));

function candidates(root: Json, kind: MutationKind): Path[] {
  const all = pathsOf(root);
  const where = (f: (v: Json | undefined, p: Path) => boolean): Path[] => all.filter((p) => f(get(root, p), p));
  switch (kind) {
    case 'drop':
      return all.filter((p) => p.length > 0);
    case 'negative':
    case 'huge':
      return where((v) => isNumeric(v));
    case 'extraItem':
      return where((v) => Array.isArray(v) || isObject(v));
    case 'garbledError': {
      const errors = where((_v, p) => p[p.length - 1] === 'error');
      return errors.length > 0 ? errors : where((v) => isObject(v));
    }
    case 'wrongClientOrderId':
      return where((v) => isObject(v));
    default:
      return all;
  }
}

type Obj = { [k: string]: Json };

/** Per kind: the node that replaces the chosen one (`undefined` removes it). */
const REPLACEMENTS: Readonly<Record<MutationKind, (node: Json | undefined, variant: number) => Json | undefined>> = {
  drop: () => undefined,
  wrongType: (_n, v) => pick(WRONG_TYPES, v),
  negative: (n) => (typeof n === 'number' ? -Math.abs(n) || -1 : `-${String(n)}`),
  huge: (n, v) => (typeof n === 'number' ? pick(HUGE_NUMBERS, v) : pick(HUGE_STRINGS, v)),
  extraItem: (n, v) => (Array.isArray(n) ? [...n, structuredClone(pick(n.length > 0 ? n : [{}], v))] : { ...(n as Obj), extra_field: 1 }),
  garbledError: (_n, v) => structuredClone(pick(GARBLED_ERRORS, v)),
  wrongClientOrderId: (n, v) => ({ ...(n as Obj), clientOrderId: pick(CLIENT_ORDER_IDS, v) }),
};

/** Applies one mutation to a deep copy of `value`; a mutation with no candidate node changes nothing. */
export function mutate(value: Json, m: Mutation): Json {
  const root = structuredClone(value);
  const paths = candidates(root, m.kind);
  if (paths.length === 0) return root;
  const path = pick(paths, m.at);
  return set(root, path, REPLACEMENTS[m.kind](get(root, path), m.variant));
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  at: fc.nat(),
  variant: fc.nat(),
});

/** One to three mutations, applied in order. */
export const mutationsArb = fc.array(mutationArb, { minLength: 1, maxLength: 3 });

export function mutateAll(value: unknown, ms: readonly Mutation[]): Json {
  return ms.reduce<Json>((v, m) => mutate(v, m), structuredClone(value) as Json);
}

/** A reply body: the sample mutated, or the whole body damaged (empty, HTML, truncated). */
export function bodyArb(sample: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(sample);
  return fc.oneof(
    { weight: 6, arbitrary: mutationsArb.map((ms) => JSON.stringify(mutateAll(sample, ms))) },
    { weight: 1, arbitrary: fc.constantFrom('', '<html><body><h1>502 Bad Gateway</h1></body></html>', 'null', '[]', '{}') },
    { weight: 1, arbitrary: fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => text.slice(0, n)) },
  );
}

/** Fields that may carry a sign (fees: a maker rebate; the funding rate). */
const SIGNED_KEYS = new Set(['fee', 'fundingRate', 'takerFeeRate', 'makerFeeRate']);
const ID_KEYS = new Set(['orderId', 'dealId', 'id', 'otoId']);

function decimalViolations(d: Decimal, path: string, key: string): string[] {
  if (!d.isFinite()) return [`${path}: not finite`];
  return d.isNegative() && !d.isZero() && !SIGNED_KEYS.has(key) ? [`${path}: negative`] : [];
}

function numberViolations(n: number, path: string, key: string): string[] {
  if (key.endsWith('Ms') && !(n >= MIN_TIME_MS && n <= MAX_TIME_MS)) return [`${path}: time out of range`];
  if (ID_KEYS.has(key) && !(Number.isSafeInteger(n) && n >= 0)) return [`${path}: unsafe id`];
  return Number.isFinite(n) ? [] : [`${path}: not finite`];
}

function entriesOf(value: unknown): [string, unknown][] {
  if (value instanceof Map) return [...value.entries()].map(([k, v]) => [String(k), v]);
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  return typeof value === 'object' && value !== null ? Object.entries(value) : [];
}

/** What a parsed (domain) value may never hold: negative unsigned money, an implausible time, an unsafe id. */
export function domainViolations(value: unknown, path = ''): string[] {
  const key = path.split('.').pop() ?? '';
  if (Decimal.isDecimal(value)) return decimalViolations(value as Decimal, path, key);
  if (typeof value === 'number') return numberViolations(value, path, key);
  return entriesOf(value).flatMap(([k, v]) => domainViolations(v, path === '' ? k : `${path}.${k}`));
}

/**
 * The spec's private error object (2.10), read independently of the client: an integer code, a
 * string message, and `errors` absent, `[]` or `{param: [messages]}`.
 */
export function isWellFormedError(v: unknown): boolean {
  if (!isObject(v as Json)) return false;
  const e = v as Record<string, unknown>;
  const errs = e['errors'];
  const errsOk =
    errs === undefined || errs === null || (Array.isArray(errs) && errs.length === 0) ||
    (isObject(errs as Json) && Object.values(errs as object).every((m) => Array.isArray(m) && m.every((s) => typeof s === 'string')));
  return Number.isSafeInteger(e['code']) && typeof e['message'] === 'string' && errsOk;
}

/** A bulk request's order as the oracle sees it. */
export interface SentOrder {
  clientOrderId: string;
  market: string;
  side: string;
}

/** The raw `result` objects of a bulk reply that carry `cid` (an order's placement needs exactly one). */
export function resultsCarrying(reply: unknown, cid: string): Record<string, unknown>[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((item: unknown) => {
    const result = isObject(item as Json) ? (item as Record<string, unknown>)['result'] : undefined;
    return isObject(result as Json) && (result as Record<string, unknown>)['clientOrderId'] === cid ? [result as Record<string, unknown>] : [];
  });
}

/**
 * Whether a bulk reply proves item `i` was refused: the reply has the request's length (without
 * stopOnFail), item `i` is `{result: null, error: <well-formed>}`, and every result in the reply
 * sits at its own order's position, so positions can be trusted.
 */
export function provesRefusal(reply: unknown, orders: readonly SentOrder[], i: number, stopOnFail: boolean): boolean {
  if (!Array.isArray(reply) || reply.length > orders.length || (!stopOnFail && reply.length !== orders.length)) return false;
  const item: unknown = reply[i];
  if (!isObject(item as Json)) return false;
  const rec = item as Record<string, unknown>;
  if ((rec['result'] ?? null) !== null || !isWellFormedError(rec['error'])) return false;
  return reply.every((it: unknown, j) => {
    const result = isObject(it as Json) ? (it as Record<string, unknown>)['result'] : undefined;
    if (!isObject(result as Json)) return true;
    const r = result as Record<string, unknown>;
    return j !== i && r['clientOrderId'] === orders[j]!.clientOrderId && r['market'] === orders[j]!.market && r['side'] === orders[j]!.side;
  });
}

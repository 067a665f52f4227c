/**
 * treasury: watches the flex (lending) investments. It reports the earnings ledger whenever it
 * grew, and when the main balance of `quoteAsset` falls below `minQuoteBalance` it closes the
 * largest active investment in that asset to bring the funds back. A close is asked for at most
 * once per `closeCooldownMs` (the ledger shows the result only after the next flex pull).
 *
 * Params: `quoteAsset` (default "USDT"), `minQuoteBalance` (decimal string),
 * `closeCooldownMs` (default 600000).
 */
import { ZERO, defineStrategy, intents, p, z, type IntentInput, type JsonValue, type StrategyContext } from '../src/strategy-api/index.js';

export const treasuryParams = z.strictObject({
  quoteAsset: p.asset().default('USDT'),
  minQuoteBalance: p.nonNegative(),
  closeCooldownMs: p.int({ min: 0 }).default(600_000),
});
export type TreasuryParams = z.output<typeof treasuryParams>;

/** The earnings as reported per earnings object: the engine hands the same frozen one until the ledger changes. */
const written = new WeakMap<object, Reported>();

interface Reported {
  earnings: Readonly<Record<string, string>>;
}

function earningsOf(ctx: StrategyContext<TreasuryParams>): Reported {
  const source = ctx.flex.earnings;
  const kept = Object.isFrozen(source) ? written.get(source) : undefined;
  if (kept !== undefined) return kept;
  const earnings: Record<string, string> = {};
  for (const [currency, amount] of Object.entries(source)) earnings[currency] = amount.toFixed();
  const made = { earnings: Object.freeze(earnings) };
  if (Object.isFrozen(source)) written.set(source, made);
  return made;
}

/**
 * Whether `reported` is written as `earnings` is (what comparing their JSON texts decides, without
 * writing one out each tick): an object with the same keys in the same order, each holding the same
 * string. Absent or null counts as `{}`.
 */
export function sameAsReported(reported: JsonValue | undefined, earnings: Readonly<Record<string, string>>): boolean {
  const given = reported ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) return false;
  const r = given as Readonly<Record<string, JsonValue>>;
  const keys = Object.keys(r);
  const mine = Object.keys(earnings);
  if (keys.length !== mine.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (k !== mine[i] || r[k] !== earnings[k]) return false;
  }
  return true;
}

function reportEarnings(ctx: StrategyContext<TreasuryParams>): void {
  const { earnings } = earningsOf(ctx);
  if (!sameAsReported(ctx.state.get('reported'), earnings)) {
    ctx.log.info({ earnings }, 'flex earnings');
    ctx.state.set('reported', earnings);
  }
}

export function review(ctx: StrategyContext<TreasuryParams>): IntentInput[] {
  const params = ctx.params;
  reportEarnings(ctx);
  const balance = ctx.balances[params.quoteAsset] ?? ZERO;
  if (balance.gte(params.minQuoteBalance)) return [];
  const lastClose = ctx.state.get('lastCloseMs');
  if (typeof lastClose === 'number' && ctx.nowMs - lastClose < params.closeCooldownMs) return [];
  const candidates = ctx.flex.investments
    .filter((i) => i.currency === params.quoteAsset && i.amount.gt(0))
    .sort((a, b) => b.amount.comparedTo(a.amount));
  const pick = candidates[0];
  if (pick === undefined) return [];
  ctx.log.info({ plan: pick.planId, balance: balance.toFixed(), amount: pick.amount.toFixed() }, 'quote balance low: closing a flex investment');
  ctx.state.set('lastCloseMs', ctx.nowMs);
  return [intents.closeFlex(pick.planId)];
}

export default defineStrategy<TreasuryParams>({
  name: 'treasury',
  params: treasuryParams,
  schedule: '0 * * * * *',
  onTick: (ctx) => review(ctx),
});

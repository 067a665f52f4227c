/**
 * Intents: what a hook asks the engine to do. A strategy never calls the venue; it returns
 * intents, the engine validates them here (garbage is a `StrategyError('bad_intent')` that counts
 * against the error budget), rounds them to the market rules, runs them through the risk gate
 * and hands them to the order manager.
 */
import { z } from 'zod';
import { Decimal, isDecimalString } from '../core/decimal.js';
import { StrategyError } from '../core/errors.js';
import { CLIENT_ORDER_ID_RE } from '../core/ids.js';
import { MARKET_RE } from '../core/market-names.js';
import { describeIssue, keyOf } from './issues.js';
import { MAX_FLEX_PLAN_LENGTH, stopLossSideOk, takeProfitSideOk } from './intent-rules.js';
import { commonIntents } from './intents-fast.js';

/** A Decimal, or a plain decimal string, > 0. */
const positive = z
  .union([z.custom<Decimal>((v) => Decimal.isDecimal(v), { message: 'a Decimal' }), z.string().refine(isDecimalString, 'a plain decimal string such as "0.01"')], {
    error: 'a decimal string such as "0.01" or a Decimal',
  })
  .transform((v) => new Decimal(v))
  .refine((d) => d.isFinite() && d.gt(0), { message: 'a positive decimal' });

const market = z.string().regex(MARKET_RE, 'a market name such as BTC_USDT');
const side = z.enum(['buy', 'sell']);

export const limitOrderSchema = z.strictObject({
  market,
  side,
  /** Base amount; truncated to the market step by the engine. */
  amount: positive,
  /** Limit price; rounded to the tick by side by the engine. */
  price: positive,
  postOnly: z.boolean().optional(),
});

export const placeLimitsSchema = z.strictObject({
  type: z.literal('placeLimits'),
  /** Sent as one bulk request (chunked by 20 on the wire). */
  orders: z.array(limitOrderSchema).min(1).max(100),
});

export const placeCollateralSchema = z
  .strictObject({
    type: z.literal('placeCollateral'),
    market,
    side,
    amount: positive,
    price: positive,
    /** Stop-loss trigger price; required unless `exit`. */
    stopLoss: positive.optional(),
    takeProfit: positive.optional(),
    /**
     * An exit: reduces the instance's open position and needs no protective leg. The risk gate
     * refuses an exit that does not reduce the position.
     */
    exit: z.boolean().optional(),
    postOnly: z.boolean().optional(),
    ioc: z.boolean().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.exit === true) return;
    if (o.stopLoss === undefined) {
      ctx.addIssue({ code: 'custom', path: ['stopLoss'], message: 'a stopLoss on an entry (or exit: true)' });
      return;
    }
    const below = o.side === 'buy';
    if (!stopLossSideOk(o.side, o.price, o.stopLoss)) {
      ctx.addIssue({ code: 'custom', path: ['stopLoss'], message: `stopLoss ${below ? 'below' : 'above'} the price for a ${o.side}` });
    }
    if (o.takeProfit !== undefined && !takeProfitSideOk(o.side, o.price, o.takeProfit)) {
      ctx.addIssue({ code: 'custom', path: ['takeProfit'], message: `takeProfit ${below ? 'above' : 'below'} the price for a ${o.side}` });
    }
  });

export const cancelSchema = z.strictObject({ type: z.literal('cancel'), clientOrderId: z.string().regex(CLIENT_ORDER_ID_RE) });
export const cancelAllSchema = z.strictObject({ type: z.literal('cancelAll'), market: market.optional() });
export const closeFlexSchema = z.strictObject({ type: z.literal('closeFlex'), plan: z.string().min(1).max(MAX_FLEX_PLAN_LENGTH) });

export const intentSchema = z.discriminatedUnion('type', [placeLimitsSchema, placeCollateralSchema, cancelSchema, cancelAllSchema, closeFlexSchema]);

/** At most this many intents per hook call. */
export const MAX_INTENTS_PER_CALL = 50;
export const intentsSchema = z.array(intentSchema).max(MAX_INTENTS_PER_CALL);

/** A validated intent (Decimals everywhere). */
export type Intent = z.output<typeof intentSchema>;
/** What a strategy may write (Decimals or decimal strings). */
export type IntentInput = z.input<typeof intentSchema>;
export type LimitOrderIntent = z.output<typeof limitOrderSchema>;
export type PlaceLimitsIntent = z.output<typeof placeLimitsSchema>;
export type PlaceCollateralIntent = z.output<typeof placeCollateralSchema>;
export type CancelIntent = z.output<typeof cancelSchema>;
export type CancelAllIntent = z.output<typeof cancelAllSchema>;
export type CloseFlexIntent = z.output<typeof closeFlexSchema>;

/** What a hook may return. */
export type HookResult = readonly IntentInput[] | undefined | void;

/**
 * Validates a hook's return value. Throws `StrategyError('bad_intent')` naming the first problem as
 * `intents[0].orders[0].price: expected a decimal string such as "0.01" or a Decimal, found 12`.
 */
export function parseIntents(value: unknown, instanceId: string): Intent[] {
  if (value === undefined || value === null) return [];
  const common = commonIntents(value, MAX_INTENTS_PER_CALL);
  if (common !== undefined) return common;
  const parsed = intentsSchema.safeParse(value);
  if (parsed.success) {
    // What the schema accepts goes through the plain parse too, as decimal strings: zod is shared
    // with strategies in the backtest's thread and cannot be frozen (sandbox/evaluate.ts), so what
    // the engine acts on never rests on its word alone. The same intents for every honest input.
    const again = plainAgain(parsed.data);
    if (again !== undefined) return again;
  }
  const first = parsed.success ? undefined : parsed.error.issues[0];
  const detail = first === undefined ? 'intents: invalid' : describeIssue(first, 'intents', value);
  throw new StrategyError('bad_intent', `strategy ${instanceId} returned an invalid intent: ${detail}`, {
    instanceId,
    path: keyOf('intents', first?.path ?? []),
  });
}

/** The schema's output as plain JSON (Decimals as their strings), parsed by the plain parse; undefined when it refuses. */
function plainAgain(data: unknown): Intent[] | undefined {
  try {
    return commonIntents(JSON.parse(JSON.stringify(data)), MAX_INTENTS_PER_CALL);
  } catch {
    return undefined;
  }
}

/** Builders, so strategy code reads as what it does. */
export const intents = {
  placeLimits(orders: z.input<typeof limitOrderSchema>[]): IntentInput {
    return { type: 'placeLimits', orders };
  },
  placeCollateral(order: Omit<z.input<typeof placeCollateralSchema>, 'type'>): IntentInput {
    return { type: 'placeCollateral', ...order };
  },
  cancel(clientOrderId: string): IntentInput {
    return { type: 'cancel', clientOrderId };
  },
  cancelAll(market?: string): IntentInput {
    return market === undefined ? { type: 'cancelAll' } : { type: 'cancelAll', market };
  },
  closeFlex(plan: string): IntentInput {
    return { type: 'closeFlex', plan };
  },
};

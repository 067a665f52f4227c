/**
 * Every protective bracket an account ever had, active or not: the OTO of a collateral parent
 * and, once the parent filled, the OCO legs it became. The conditional listing (and the truth's
 * `conditional`) only shows active records; tests that judge the bot's leg bookkeeping after the
 * fact need the whole lineage (which parent a leg belongs to, and how it ended).
 */
import { toWire } from '../core/decimal.js';
import type { Account } from './account.js';
import type { OcoRecord, OtoRecord, SimOrder } from './types.js';

/** One leg of an OCO as it ended (or stands). */
export interface BracketLeg {
  orderId: number;
  /** `NEW` (still listed), `FILLED` (executed) or `CANCELLED` (the other leg executed, or an admin cancel). */
  status: string;
  /** Last change, ms of the simulator clock (execution or cancel time once terminal). */
  mtimeMs: number;
  createdMs: number;
  amount: string;
}

/** The OTO of one collateral parent and the OCO it became. */
export interface Bracket {
  otoId: number;
  parentOrderId: number;
  parentClientOrderId: string;
  market: string;
  /** The OTO is still listed (the parent rests). */
  otoActive: boolean;
  /** Null until the parent ended with a filled amount. */
  ocoId: number | null;
  ocoActive: boolean;
  stopLoss: BracketLeg | null;
  takeProfit: BracketLeg | null;
}

function leg(account: Account, id: number | undefined): BracketLeg | null {
  const o: SimOrder | undefined = id === undefined ? undefined : account.orders.get(id);
  if (o === undefined) return null;
  return { orderId: o.orderId, status: o.status, mtimeMs: o.mtimeMs, createdMs: o.createdMs, amount: toWire(o.amount) };
}

function bracketOf(account: Account, oto: OtoRecord, oco: OcoRecord | undefined): Bracket | undefined {
  const parent = account.orders.get(oto.parentOrderId);
  if (parent === undefined) return undefined;
  return {
    otoId: oto.id,
    parentOrderId: parent.orderId,
    parentClientOrderId: parent.clientOrderId,
    market: parent.market,
    otoActive: oto.active,
    ocoId: oco?.id ?? null,
    ocoActive: oco?.active ?? false,
    stopLoss: leg(account, oco?.stopLossOrderId),
    takeProfit: leg(account, oco?.takeProfitOrderId),
  };
}

/** Brackets of `account`, oldest parent first. */
export function bracketsOf(account: Account): Bracket[] {
  const ocoByOto = new Map<number, OcoRecord>();
  for (const rec of account.conditionals.values()) if (rec.type === 'oco') ocoByOto.set(rec.otoId, rec);
  const out: Bracket[] = [];
  for (const rec of account.conditionals.values()) {
    if (rec.type !== 'oto') continue;
    const b = bracketOf(account, rec, ocoByOto.get(rec.id));
    if (b !== undefined) out.push(b);
  }
  return out;
}

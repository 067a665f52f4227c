/**
 * Two renderings of one event: structured JSON for the webhook (`type`, ISO `time`, money as
 * exact decimal strings, never JSON numbers) and a short plain-text line for Telegram (no parse
 * mode, so nothing in a reason or detail needs escaping).
 */
import { toWire } from '../core/decimal.js';
import type { DailySummaryEvent, NotifyEvent, SummaryEquity } from './events.js';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

const iso = (ms: number): string => new Date(ms).toISOString();

function equityJson(q: SummaryEquity | null): Json {
  if (q === null) return null;
  const p = q.parts;
  const parts = p === null ? null : { balances: toWire(p.balances), held: toWire(p.held), positions: toWire(p.positions), flex: toWire(p.flex) };
  const unvalued = q.unvalued.map((u) => ({ asset: u.asset, amount: toWire(u.amount) }));
  return { asset: q.asset, at: iso(q.atMs), total: toWire(q.total), peak: toWire(q.peak), parts, unvalued };
}

function summaryJson(e: DailySummaryEvent): Record<string, Json> {
  return {
    day: e.day,
    from: iso(e.fromMs),
    tradingState: e.tradingState,
    fills: e.fills,
    openOrders: e.openOrders,
    pnl: e.pnl.map((p) => ({ quote: p.quote, realised: toWire(p.realised), fees: toWire(p.fees), realisedNetOfFees: toWire(p.realisedNetOfFees) })),
    otherFees: e.otherFees.map((f) => ({ asset: f.asset, amount: toWire(f.amount) })),
    alerts: e.alerts.map((a) => ({ kind: a.kind, count: a.count })),
    equity: equityJson(e.equity),
  };
}

function fields(e: NotifyEvent): Record<string, Json> {
  switch (e.type) {
    case 'fill':
      return {
        strategy: e.strategyId,
        market: e.market,
        side: e.side,
        role: e.role,
        price: toWire(e.price),
        amount: toWire(e.amount),
        quote: toWire(e.quote),
        fee: toWire(e.fee),
        feeAsset: e.feeAsset,
        dealId: String(e.dealId),
        clientOrderId: e.clientOrderId,
      };
    case 'refusal':
      return { strategy: e.strategyId, code: e.code, detail: e.detail, suppressed: e.suppressed, windowMs: e.windowMs };
    case 'alert':
      return { kind: e.kind, subject: e.subject, detail: e.detail };
    case 'trading_state':
      return { from: e.from, to: e.to, reason: e.reason };
    case 'quarantine':
      return { strategy: e.strategyId, reason: e.reason };
    case 'daily_summary':
      return summaryJson(e);
  }
}

/** The webhook body: `{ type, time, source, ...fields }`. */
export function toWebhookJson(e: NotifyEvent, source: string): Record<string, Json> {
  return { type: e.type, time: iso(e.atMs), source, ...fields(e) };
}

const minutes = (ms: number): string => `${Math.round(ms / 60_000)} min`;

function summaryText(e: DailySummaryEvent): string {
  const pnl = e.pnl.length === 0 ? ['PnL: no realised PnL'] : e.pnl.map((p) => `PnL ${p.quote}: ${toWire(p.realisedNetOfFees)} net (${toWire(p.realised)} before ${toWire(p.fees)} fees)`);
  const other = e.otherFees.map((f) => `fees in ${f.asset}: ${toWire(f.amount)}`);
  const alerts = e.alerts.length === 0 ? 'alerts: none' : `alerts: ${e.alerts.map((a) => `${a.kind} ×${a.count}`).join(', ')}`;
  return [`Daily summary ${e.day} (UTC)`, `trading ${e.tradingState}, ${e.fills} fills, ${e.openOrders} open orders`, ...pnl, ...other, alerts, ...equityText(e.equity)].join('\n');
}

function equityText(q: SummaryEquity | null): string[] {
  if (q === null) return ['equity: not checked yet'];
  const p = q.parts;
  const parts = p === null ? '' : ` = balances ${toWire(p.balances)} + held ${toWire(p.held)} + positions ${toWire(p.positions)} + flex ${toWire(p.flex)}`;
  const unvalued = q.unvalued.length === 0 ? [] : [`not valued (no price into ${q.asset}): ${q.unvalued.map((u) => `${toWire(u.amount)} ${u.asset}`).join(', ')}`];
  return [`equity ${toWire(q.total)} ${q.asset} (peak ${toWire(q.peak)})${parts}`, ...unvalued];
}

function refusalText(e: Extract<NotifyEvent, { type: 'refusal' }>): string {
  if (e.suppressed === 0) return `Refused (${e.strategyId}): ${e.code}: ${e.detail}`;
  return `Refused (${e.strategyId}): ${e.code}: +${e.suppressed} more in the last ${minutes(e.windowMs)}; last: ${e.detail}`;
}

function body(e: NotifyEvent): string {
  switch (e.type) {
    case 'fill':
      return `Fill ${e.strategyId} ${e.market}: ${e.side} ${toWire(e.amount)} @ ${toWire(e.price)} (${e.role}, fee ${toWire(e.fee)}${e.feeAsset === '' ? '' : ` ${e.feeAsset}`})`;
    case 'refusal':
      return refusalText(e);
    case 'alert':
      return `ALERT ${e.kind} (${e.subject}): ${e.detail}`;
    case 'trading_state':
      return `Trading state ${e.from} → ${e.to}: ${e.reason}`;
    case 'quarantine':
      return `Strategy ${e.strategyId} quarantined: ${e.reason}`;
    case 'daily_summary':
      return summaryText(e);
  }
}

/** Telegram's limit is 4096 characters; a longer detail is cut rather than refused. */
const MAX_TEXT = 4000;

/** The Telegram message: `[source] text`. */
export function toText(e: NotifyEvent, source: string): string {
  const text = `[${source}] ${body(e)}`;
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

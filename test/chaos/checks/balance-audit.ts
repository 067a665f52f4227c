/**
 * No unexplained balance change. A chaos run trades only through the bot, so every
 * `books_unexplained` alert is false, except one whose window holds the venue's own settlement
 * at the end of the run (it cancels the account's orders and closes its positions while the bot
 * is stopped: a true venue-side change the books cannot know). The alert's window comes from the
 * audit result stored with it (same time, the subject's asset).
 */
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import type { AlertRecord, BalanceAuditRecord } from '../../../src/store/index.js';
import type { Evidence } from '../evidence.js';
import type { Check } from './types.js';

export const BOOKS_ALERT = 'books_unexplained';

interface StoredAsset {
  asset: string;
  verdict: string;
  fromMs: number | null;
  difference: string;
}

/** The assets of a stored audit result (its JSON detail). */
export function auditAssets(r: BalanceAuditRecord): StoredAsset[] {
  const detail = r.detail as { assets?: StoredAsset[] } | null;
  return detail?.assets ?? [];
}

/** The window start the audit stored for the alert's asset, or null when no stored audit matches the alert. */
function windowStart(alert: AlertRecord, audits: readonly BalanceAuditRecord[]): number | null {
  const audit = audits.find((a) => a.atMs === alert.atMs && a.outcome === 'unexplained');
  const asset = audit === undefined ? undefined : auditAssets(audit).find((x) => x.asset === alert.subject && x.verdict === 'unexplained');
  return asset?.fromMs ?? null;
}

export function falseBooksAlerts(ev: Evidence): string[] {
  const out: string[] = [];
  for (const alert of ev.store.alerts.filter((a) => a.kind === BOOKS_ALERT)) {
    const fromMs = windowStart(alert, ev.store.audits);
    const settle = ev.venueSettle;
    if (fromMs === null) {
      out.push(`alert ${alert.id} (${alert.subject}) has no stored audit result with its window`);
      continue;
    }
    const holdsSettle = settle !== null && settle.toMs > fromMs && settle.fromMs <= alert.atMs;
    if (!holdsSettle) out.push(`alert ${alert.id} "${alert.detail}": no venue-side change in its window (the run traded only through the bot)`);
  }
  return out;
}

export const noUnexplainedBalance: Check = {
  name: 'no unexplained balance change',
  asserts: 'every books_unexplained alert has the venue\'s own settlement in its window (a chaos run trades only through the bot)',
  run: falseBooksAlerts,
};

/** What the audits judged: windows per asset by verdict, and the largest difference they still called explained. */
export function auditFigures(ev: Evidence): Record<string, string> {
  const verdicts = new Map<string, Record<string, number>>();
  const largest = new Map<string, Decimal>();
  for (const r of ev.store.audits) {
    for (const a of auditAssets(r)) {
      const counts = verdicts.get(a.asset) ?? {};
      counts[a.verdict] = (counts[a.verdict] ?? 0) + 1;
      verdicts.set(a.asset, counts);
      if (a.verdict === 'explained') largest.set(a.asset, Decimal.max(largest.get(a.asset) ?? ZERO, new Decimal(a.difference).abs()));
    }
  }
  const per = (m: Map<string, string>): string => [...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${v}`).join('; ') || 'none';
  const show = (c: Record<string, number>): string => ['explained', 'deferred', 'unconfirmed', 'unexplained', 'started'].map((v) => `${c[v] ?? 0}`).join('/');
  return {
    'asset windows (explained/deferred/unconfirmed/unexplained/started)': per(new Map([...verdicts].map(([k, c]) => [k, show(c)]))),
    'largest |difference| judged explained': per(new Map([...largest].map(([k, v]) => [k, v.toFixed()]))),
  };
}

/**
 * Ends a run so the store and the venue can be compared exactly: stop the daemon, settle the
 * venue account (cancel open orders and OTO/OCO legs, so nothing fills any more), then start
 * the daemon once more with every strategy disabled: its start-up and scheduled reconciliations
 * take in every deal and resolve what is still UNKNOWN (bounded wait), and it stops cleanly.
 */
import { eventually } from '../support/eventually.js';
import type { ChaosDaemon } from './daemon.js';
import type { VenueAdmin } from './venue.js';

/**
 * Alerts the last run raises for legs the settle cancelled are true ones: the leg check knows it
 * from the venue's leg history; a balance the settle moved is judged by its time (returned).
 */
export async function finalSettle(daemon: ChaosDaemon, admin: VenueAdmin, quietConfig: string, waitUnknownMs: number): Promise<{ fromMs: number; toMs: number }> {
  await daemon.end('term');
  const fromMs = Date.now();
  await admin.settle();
  const settled = { fromMs, toMs: Date.now() };
  await daemon.start({ BOT_CONFIG: quietConfig });
  const readyMs = Date.now();
  try {
    await eventually(async () => {
      const h = await daemon.healthz();
      return h !== undefined && (h.jobs['reconcile']?.lastRunMs ?? 0) > readyMs && h.unknownOrders === 0;
    }, 'UNKNOWN orders resolved', { timeoutMs: waitUnknownMs, everyMs: 500 });
  } catch {
    // Reported as a figure: the resolver's grace period can outlast a short run.
  }
  await daemon.end('term');
  return settled;
}

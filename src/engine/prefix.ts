/**
 * The clientOrderId prefix of a strategy: its id reduced to the venue's charset, ≤ 12 chars.
 * Two strategies that reduce to the same prefix share one sequence, so ids never collide.
 */
export function clientIdPrefixFor(strategyId: string): string {
  const p = strategyId.replace(/[^A-Za-z0-9._]/g, '').slice(0, 12);
  return p === '' ? 's' : p;
}

/** Where the exchange client persists its nonce high-water mark; the store implements it. */
export interface NoncePersistence {
  load(): number | undefined;
  save(highWaterMs: number): void;
}

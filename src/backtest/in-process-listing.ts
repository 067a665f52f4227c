/**
 * The conditional listing of the in-process venue, kept while the account's listing mark
 * (`Account.listingChanges`) stands still. The reconciler lists the markets of its live
 * protective legs on every pass that is not skipped, and most such passes follow a deal of a
 * plain order (a grid's fill), which leaves every OTO/OCO record and the orders they carry as
 * they were: the listing the venue would answer is then the one it answered last
 * (docs/backtesting.md § The in-process venue). A listing is kept only when the mark was the
 * same before and after it was read, and it is handed out as a new array of the same frozen
 * records, so a caller cannot change what the next one gets.
 */
import type { ConditionalRecord } from '../model/conditional.js';
import type { Account } from '../simulator/account.js';

interface Kept {
  mark: number;
  /** The markets asked, in the order asked. */
  markets: string;
  records: readonly ConditionalRecord[];
}

export class KeptListing {
  private kept: Kept | undefined;

  constructor(
    private readonly account: Pick<Account, 'listingChanges'>,
    /** Brings the venue up to now (a price step may trigger or end a leg), as every request does first. */
    private readonly catchUp: () => void,
  ) {}

  async read(markets: readonly string[], list: () => Promise<ConditionalRecord[]>): Promise<ConditionalRecord[]> {
    this.catchUp();
    const mark = this.account.listingChanges;
    const key = markets.join('\n');
    const kept = this.kept;
    if (kept !== undefined && kept.mark === mark && kept.markets === key) return [...kept.records];
    this.kept = undefined;
    const records = await list();
    if (this.account.listingChanges === mark) this.kept = { mark, markets: key, records: [...records] };
    return records;
  }
}

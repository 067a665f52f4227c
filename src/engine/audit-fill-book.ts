/**
 * The fills' part of the balance audit's books, kept between looks (src/engine/kernels/books.ts
 * `FillBook`). Summing every fill at each look costs about a second per 100 000 fills, on the
 * event loop; fills only ever arrive, so the book grows by the fills above the highest deal id it
 * counted. A cheap fingerprint of the table (count, highest id, id sums of all fills and of owned
 * ones) tells whether that is all that changed: a late fill below the highest id, a fill
 * attributed to one of our orders afterwards, or a new collateral market makes it count again
 * from scratch.
 */
import type { FillsFingerprint, OwnFillRow, Store } from '../store/index.js';
import { EMPTY_FILL_BOOK, withFills, type BooksFill, type FillBook } from './kernels/books.js';

type AssetsOf = (market: string) => { base: string; quote: string };

interface Counted {
  book: FillBook;
  fingerprint: FillsFingerprint;
  markets: string;
}

const same = (a: FillsFingerprint, b: FillsFingerprint): boolean => a.n === b.n && a.maxId === b.maxId && a.ids === b.ids && a.owned === b.owned;
const booksFill = (f: OwnFillRow): BooksFill => ({ ...f, collateral: f.kind === 'collateral' });

export class AuditFillBook {
  private counted: Counted | null = null;
  /** Fills read so far (full counts and increments): what the cache saves shows here. */
  fillsRead = 0;

  constructor(private readonly store: Store) {}

  current(assetsOf: AssetsOf): FillBook {
    const audit = this.store.audit;
    const markets = audit.collateralMarkets();
    const key = markets.join(',');
    const now = audit.fillsFingerprint();
    const c = this.counted;
    if (c !== null && c.markets === key) {
      if (same(c.fingerprint, now)) return c.book;
      const grown = this.grown(c, now, markets, assetsOf);
      if (grown !== null) return grown;
    }
    const own = audit.ownFills();
    const position = audit.fillsOnMarkets(markets);
    this.fillsRead += own.length + position.length;
    const book = withFills(EMPTY_FILL_BOOK, own.map(booksFill), position, assetsOf);
    this.counted = { book, fingerprint: now, markets: key };
    return book;
  }

  /** The book with the fills above the counted highest id, when they are all that changed. */
  private grown(c: Counted, now: FillsFingerprint, markets: readonly string[], assetsOf: AssetsOf): FillBook | null {
    const audit = this.store.audit;
    const after = c.fingerprint.maxId ?? -1;
    const added = audit.fillsFingerprint(after);
    const was = c.fingerprint;
    const expected: FillsFingerprint = { n: was.n + added.n, maxId: added.maxId ?? was.maxId, ids: was.ids + added.ids, owned: was.owned + added.owned };
    if (!same(expected, now)) return null;
    const own = audit.ownFills(after);
    const position = audit.fillsOnMarkets(markets, after);
    this.fillsRead += own.length + position.length;
    const book = withFills(c.book, own.map(booksFill), position, assetsOf);
    this.counted = { book, fingerprint: now, markets: c.markets };
    return book;
  }
}

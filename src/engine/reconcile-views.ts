/**
 * The live protective children with their parents, as the conditional diff sees them
 * (`ChildView`), and as one text (the pass shortcut compares it; equal texts, equal views). A
 * pass reads them up to three times (the shortcut, the listing's markets, the diff), and most
 * passes follow a write to another strategy's orders (a grid's fill or placement), which changes
 * none of them: they are kept while the children are unwritten and no order of a strategy whose
 * order is a parent was written (`versionOf`); when a child's parent was not found, while no
 * order at all was written. Inside a transaction that may roll back they are read fresh and not
 * kept.
 */
import type { Store } from '../store/index.js';
import type { ChildView } from './kernels/conditional.js';

export interface ChildViews {
  views: ChildView[];
  key: string;
}

type ViewsStore = Pick<Store, 'orders' | 'children' | 'fills'>;

interface Kept extends ChildViews {
  children: number;
  /** Order write counts of the parents' strategies, or of all orders (`null` strategy) when a parent was missing. */
  orders: [string | null, number][];
}

/** Every field of a child view, as text: equal texts, equal views. */
function viewKey(v: ChildView): string {
  const p = v.parent;
  const parent = [p.clientOrderId, p.market, p.side, p.state, p.otoId, p.filledBase.toString()];
  return JSON.stringify([v.childId, v.kind, v.state, v.price.toString(), v.orderId, v.ocoId, ...parent]);
}

export class ReconcileViews {
  private kept: Kept | undefined;

  constructor(private readonly store: ViewsStore) {}

  read(): ChildViews {
    const { fills } = this.store;
    if (fills.inTransaction) return this.readFresh();
    if (this.kept === undefined || !this.current(this.kept)) this.kept = this.readFresh();
    return this.kept;
  }

  private count(strategyId: string | null): number {
    return strategyId === null ? this.store.orders.version : this.store.orders.versionOf(strategyId);
  }

  private current(k: Kept): boolean {
    return k.children === this.store.children.version && k.orders.every(([s, v]) => this.count(s) === v);
  }

  private readFresh(): Kept {
    const { orders, children } = this.store;
    const childrenVersion = children.version;
    const strategies = new Set<string | null>();
    const views: ChildView[] = [];
    for (const c of children.live()) {
      const p = orders.get(c.parentClientOrderId);
      strategies.add(p === undefined ? null : p.strategyId);
      if (p === undefined || p.state === 'PENDING' || p.state === 'UNKNOWN') continue;
      views.push({
        childId: c.id,
        kind: c.kind,
        state: c.state,
        price: c.price,
        orderId: c.orderId,
        ocoId: c.ocoId,
        parent: { clientOrderId: p.clientOrderId, market: p.market, side: p.side, state: p.state, otoId: p.otoId, filledBase: p.filledBase },
      });
    }
    const counts: [string | null, number][] = [...strategies].map((s) => [s, this.count(s)]);
    return { views, key: views.map(viewKey).join('\n'), children: childrenVersion, orders: counts };
  }
}

/**
 * Row shapes only the store hands out. The domain records it keeps (orders, fills, protective
 * legs, flex and credit) are declared once in src/model/.
 */

export interface AlertRecord {
  id: number;
  atMs: number;
  kind: string;
  subject: string;
  detail: string;
}

import type { Evidence } from '../evidence.js';

/** One check of the chaos suite: a name, what it asserts, and the violations it finds (empty = pass). */
export interface Check {
  name: string;
  asserts: string;
  run(ev: Evidence): string[];
}

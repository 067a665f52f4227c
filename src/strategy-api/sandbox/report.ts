/** What the load probe (load-entry.ts) tells the daemon about a module: data only. */
import type { JsonValue } from '../types.js';

/** The first param problem, as the loader turns it into a `ConfigError` naming the key. */
export interface ParamIssue {
  path: (string | number)[];
  code: string;
  message: string;
  /** The first unknown key, when `code` is `unrecognized_keys`. */
  key?: string;
  input: JsonValue | undefined;
}

export type LoadReport =
  | {
      type: 'loaded';
      name: string;
      schedule: string;
      params: JsonValue;
      hooks: { init: boolean; onFill: boolean; onOrder: boolean; onStop: boolean };
      /** What `history(params)` returned, as JSON (checked by the loader); null when the module declares none. */
      history: JsonValue;
    }
  | { type: 'threw'; message: string }
  | { type: 'not-definition'; message: string }
  | { type: 'params'; issue: ParamIssue | null };

/** Messages between a strategy worker and its host (plain, structured-clone safe). */
import type { JsonValue } from '../../strategy-api/host.js';
import type { WireFill, WireOrderEvent, WireSnapshot } from './codec.js';

export type HookName = 'init' | 'onTick' | 'onFill' | 'onOrder' | 'onStop';

export interface CallMessage {
  type: 'call';
  seq: number;
  hook: HookName;
  snapshot: WireSnapshot;
  state: Record<string, JsonValue>;
  fill?: WireFill;
  order?: WireOrderEvent;
}

export interface StateChanges {
  set: Record<string, JsonValue>;
  deleted: string[];
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'log'; level: LogLevel; obj: JsonValue | undefined; msg: string | undefined }
  | { type: 'result'; seq: number; ok: true; value: JsonValue | undefined; stateChanges: StateChanges }
  | { type: 'result'; seq: number; ok: false; message: string };

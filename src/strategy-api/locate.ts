/**
 * Where in a strategy file a failure happened. A module that fails to load and a hook that throws
 * are reported with the module's path and the first stack frame inside that file
 * (`/srv/bot/dist/strategies/grid.js:42:11: Cannot read properties of undefined`), so the author
 * goes straight to the line instead of reading the engine's frames.
 */
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../core/errors.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `file:line:col` (or `file:line` for a syntax error) of the first frame inside `file`, or null. */
export function frameIn(err: unknown, file: string): string | null {
  const text = err instanceof Error ? `${err.stack ?? ''}\n${err.message}` : '';
  const names = [pathToFileURL(file).href, file].map(escape).join('|');
  const m = new RegExp(`(?:${names}):(\\d+)(?::(\\d+))?`).exec(text);
  if (m === null) return null;
  return `${file}:${m[1] ?? ''}${m[2] === undefined ? '' : `:${m[2]}`}`;
}

/** `<file>:<line>:<col>: <message>`, or `<file>: <message>` when no frame is inside the file. */
export function locatedMessage(err: unknown, file: string): string {
  return `${frameIn(err, file) ?? file}: ${errorMessage(err)}`;
}

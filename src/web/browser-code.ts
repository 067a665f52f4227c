/**
 * The built browser modules: `src/web/browser/*.ts`, compiled by `tsconfig.browser.json` (DOM
 * library, ES modules) into `dist/src/web/browser/` by `npm run build`. Found relative to this
 * module, so the same code reads them when it runs from `dist/` (beside it) and from the sources
 * under tsx (the tests; their global setup builds `dist/` first).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A browser module's name as it is served: `/assets/<name>.js`. */
const MODULE_NAME = /^[a-z][a-z-]{0,40}$/;

const here = path.dirname(fileURLToPath(import.meta.url));
const cache = new Map<string, string>();

/** `dist/src/web/browser`: beside this module in `dist/`, or under the repository's `dist/` from `src/`. */
export function browserCodeDir(): string {
  const beside = path.join(here, 'browser');
  return existsSync(path.join(beside, 'dashboard.js')) ? beside : path.resolve(here, '../../dist/src/web/browser');
}

/** The built module `name` (`dashboard`, `format`, …), or null when there is none of that name. */
export function browserModule(name: string): string | null {
  if (!MODULE_NAME.test(name)) return null;
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const file = path.join(browserCodeDir(), `${name}.js`);
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  cache.set(name, text);
  return text;
}

/** A built module that must exist (a page cannot work without it): a clear error when it was not built. */
export function requireBrowserModule(name: string): string {
  const text = browserModule(name);
  if (text === null) throw new Error(`the browser code src/web/browser/${name}.ts is not built: run npm run build`);
  return text;
}

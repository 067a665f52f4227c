/**
 * How to start the worker entry: the compiled `worker-entry.js` next to this file when running
 * the build; from source (tsx, vitest) a small bootstrap that registers tsx's loader in the worker
 * and then imports `worker-entry.ts`.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

export interface WorkerEntry {
  script: string | URL;
  options: WorkerOptions;
}

export function workerEntry(): WorkerEntry {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL('./worker-entry.js', here), options: { execArgv: [] } };
  // tsx's ESM API as a file URL (its package exports the CommonJS build to `require.resolve`).
  const tsxApi = pathToFileURL(path.join(path.dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker-entry.ts', here).href;
  const script = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return { script, options: { eval: true, execArgv: [] } };
}

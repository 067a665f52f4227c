/**
 * How to start a sandbox worker entry: the compiled `<name>.js` next to the caller when running
 * the build; from source (tsx, vitest) a small bootstrap that registers tsx's loader in the worker
 * and then imports `<name>.ts`. Workers get no environment, no argv and no stdin, and a heap bound.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

export interface WorkerEntry {
  script: string | URL;
  options: WorkerOptions;
}

/** `callerUrl`: `import.meta.url` of the module next to the entry; `name`: the entry without extension. */
export function workerEntry(callerUrl: string, name: string): WorkerEntry {
  if (!callerUrl.endsWith('.ts')) return { script: new URL(`./${name}.js`, callerUrl), options: { execArgv: [] } };
  // tsx's ESM API as a file URL (its package exports the CommonJS build to `require.resolve`).
  const tsxApi = pathToFileURL(path.join(path.dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const script = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return { script, options: { eval: true, execArgv: [] } };
}

/**
 * Options of every strategy worker: an empty environment, no argv or stdin, and `memoryMb` as the
 * bound of its V8 heap (the sandbox leaves it no way to allocate outside the heap).
 */
export function sandboxWorkerOptions(entry: WorkerEntry, memoryMb: number, workerData: unknown): WorkerOptions {
  return {
    ...entry.options,
    workerData,
    env: {},
    argv: [],
    stdin: false,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(memoryMb / 8))), stackSizeMb: 4 },
  };
}

/**
 * The space check's worker: the tuned strategy's module evaluated once in the sandbox (as the
 * load probe does, sandbox/instance.ts), then its params schema run on every param set asked for.
 * One worker for the whole space instead of one per value. Reports data only: per set, the
 * parsed params' keys or the first issue.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { locatedMessage } from '../strategy-api/locate.js';
import { loadDefinition, parseParams, type SandboxInit } from '../strategy-api/sandbox/instance.js';

export interface SchemaCheckInit extends SandboxInit {
  paramSets: unknown[];
}

export type SchemaVerdict = { ok: true; keys: string[] } | { ok: false; code: string; message: string; key: string | null };

export type SchemaReport = { type: 'checked'; verdicts: SchemaVerdict[] } | { type: 'threw'; message: string };

function verdict(init: SchemaCheckInit, definition: ReturnType<typeof loadDefinition>, params: unknown): SchemaVerdict {
  const parsed = parseParams(definition, { ...init, params });
  if (parsed.success) return { ok: true, keys: typeof parsed.data === 'object' && parsed.data !== null ? Object.keys(parsed.data) : [] };
  const issue = parsed.error.issues[0] as { code: string; message: string; keys?: string[] } | undefined;
  return { ok: false, code: issue?.code ?? 'custom', message: issue?.message ?? 'refused', key: issue?.keys?.[0] ?? null };
}

function report(init: SchemaCheckInit): SchemaReport {
  let definition;
  try {
    definition = loadDefinition(init);
  } catch (err) {
    return { type: 'threw', message: locatedMessage(err, init.file).slice(0, 400) };
  }
  return { type: 'checked', verdicts: init.paramSets.map((params) => verdict(init, definition, params)) };
}

parentPort?.postMessage(report(workerData as SchemaCheckInit));

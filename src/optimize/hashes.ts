/**
 * Content hashes of a study's inputs (docs/optimize-workers.md § Hashes): the price data, the
 * tuned strategy's module source and the config text. The coordinator records them in
 * `StudyInputs`; every worker recomputes them from its own copy and refuses a trial whose hashes
 * differ, so results from different machines are results over the same data.
 *
 * A file's hash is cached by its absolute path, mtime and size: a worker hashes its data once,
 * not once per trial, and a changed file (new mtime or size) is hashed again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { strategyLoaderPaths } from '../daemon/strategies.js';
import { resolveStrategyFile } from '../strategy-api/host.js';
import { priceFilesOf } from '../backtest/load-prices.js';
import type { StudyInputs } from './types.js';

const fileCache = new Map<string, { mtimeMs: number; size: number; sha256: string }>();

export function sha256Text(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SHA-256 of a file's bytes, cached by path, mtime and size. */
export function fileSha256(file: string): string {
  const abs = path.resolve(file);
  const st = statSync(abs);
  const hit = fileCache.get(abs);
  if (hit !== undefined && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.sha256;
  const sha256 = sha256Text(readFileSync(abs));
  fileCache.set(abs, { mtimeMs: st.mtimeMs, size: st.size, sha256 });
  return sha256;
}

/**
 * SHA-256 over each price file's name (without its directory: the same data at another path on
 * another machine hashes the same) and the SHA-256 of its bytes, in sorted order.
 */
export function pricesSha256(given: string): string {
  const hash = createHash('sha256');
  for (const file of priceFilesOf(given)) hash.update(`${path.basename(file)}\0${fileSha256(file)}\n`);
  return hash.digest('hex');
}

/** The module file of strategy instance `strategyId` in the config text, as the loader resolves it here. */
export function strategyModuleFile(configText: string, strategyId: string): string {
  let modules: unknown;
  try {
    modules = (JSON.parse(configText) as { strategies?: unknown }).strategies;
  } catch {
    throw new ConfigError('config: expected valid JSON');
  }
  const entry = Array.isArray(modules) ? (modules as Array<{ id?: unknown; module?: unknown }>).find((s) => s.id === strategyId) : undefined;
  if (entry === undefined || typeof entry.module !== 'string') throw new ConfigError(`config: expected a strategy with id "${strategyId}", found none`);
  const file = resolveStrategyFile(entry.module, strategyLoaderPaths());
  if (file === null) throw new ConfigError(`config: strategy "${strategyId}": module "${entry.module}" not found in ${strategyLoaderPaths().dirs.join(', ')}`);
  return file;
}

/** SHA-256 of the source of the module strategy instance `strategyId` runs (the file the loader would compile). */
export function strategySha256(configText: string, strategyId: string): string {
  return fileSha256(strategyModuleFile(configText, strategyId));
}

/** The hashes a study's inputs carry, computed from this machine's files. */
export function studyHashes(configText: string, prices: string, strategyId: string): { configSha256: string; pricesSha256: string; strategySha256: string } {
  return { configSha256: sha256Text(configText), pricesSha256: pricesSha256(prices), strategySha256: strategySha256(configText, strategyId) };
}

/** What differs between the inputs' hashes and this machine's data; empty when nothing does. */
export function differingInputs(inputs: Omit<StudyInputs, 'backtestFlags'>): string[] {
  const own = studyHashes(inputs.configText, inputs.prices, inputs.strategy);
  const out: string[] = [];
  if (own.configSha256 !== inputs.configSha256) out.push('config');
  if (own.pricesSha256 !== inputs.pricesSha256) out.push(`prices (${inputs.prices})`);
  if (own.strategySha256 !== inputs.strategySha256) out.push(`strategy module of ${inputs.strategy}`);
  return out;
}

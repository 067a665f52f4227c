/**
 * Inside a strategy worker: the module evaluated in the sandbox and an instance's params parsed
 * with its own schema (with the configured markets in scope). Shared by the load probe
 * (load-entry.ts) and the hook worker (engine/sandbox-worker/worker-entry.ts).
 */
import type { z } from 'zod';
import { isStrategyDefinition, type StrategyDefinition } from '../define.js';
import { withConfiguredMarkets } from '../market-scope.js';
import { evaluateStrategy } from './evaluate.js';

/** What a sandboxed module needs: no secret, only the compiled program and the instance's data. */
export interface SandboxInit {
  /** Path of the module (names it in errors and stack frames). */
  file: string;
  fileUrl: string;
  /** The module as `compileStrategy` (transform.ts) made it. */
  program: string;
  instanceId: string;
  /** The instance's params as configured. */
  params: unknown;
  knownMarkets: string[];
}

export class NotADefinition extends Error {}

/** The module's definition; throws what its top-level code throws, or `NotADefinition`. */
export function loadDefinition(init: SandboxInit): StrategyDefinition<unknown> {
  const value = evaluateStrategy(init.program, init.fileUrl);
  if (!isStrategyDefinition(value)) throw new NotADefinition(`${init.file} does not default-export defineStrategy({...})`);
  return value;
}

export function parseParams(definition: StrategyDefinition<unknown>, init: SandboxInit): z.ZodSafeParseResult<unknown> {
  const schema = definition.params as z.ZodType;
  return withConfiguredMarkets(new Set(init.knownMarkets), () => schema.safeParse(init.params, { reportInput: true }));
}

/**
 * What the BullMQ executor (redis-executor.ts) and its workers (redis-worker.ts) agree on: the
 * study's queue name, a trial's job id, the registry of open studies, the job's data and return
 * value, and how a Redis URL is shown (never with its password).
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { StudyInputs, TrialFailure, TrialOutcome, TrialSpec } from './types.js';

/** A Redis set of the queue names of studies with trials to run: workers watch it to know what to serve. */
export const STUDY_REGISTRY_KEY = 'v4-bot:optimize:studies';

export interface TrialJobData {
  inputs: StudyInputs;
  spec: TrialSpec;
}

/** A job's return value: an outcome, or the trial's own failure (deterministic: never retried). */
export type TrialJobResult = { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure };

const short = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The study's name made safe for a Redis key part (BullMQ refuses `:` in names and ids). */
function slug(study: string): string {
  return study.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 48);
}

/** The study's queue: readable, and unique per study name even where two names slug alike. */
export function queueName(study: string): string {
  return `v4-bot-optimize-${slug(study)}-${short(study)}`;
}

/** A trial's job id: the study and the trial key, so submitting the same trial again adds nothing. */
export function trialJobId(study: string, key: string): string {
  return `${short(study)}-${key}`;
}

/** The URL with any password replaced by `***` (for logs, errors and output). */
export function maskRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable Redis URL)';
  }
}

/** A connection as BullMQ needs it (no per-request retry limit: its blocking calls wait). */
export function redisConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

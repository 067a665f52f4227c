/**
 * The study file (docs/optimize.md § Studies and resuming): one SQLite file per study holding what
 * the study was started with (its identity: content hashes, space, objective, search, seed, windows)
 * and every finished trial, keyed by `TrialSpec.key`. Re-running the same command opens the same
 * file and skips what is in it; a run whose identity differs is refused, so results of different
 * inputs never mix. A trial is written once: the key is the primary key, a second report of it is
 * ignored and counted.
 *
 * Every trial is committed as it ends (WAL journal): a killed run loses only trials in flight.
 */
import Database from 'better-sqlite3';
import type { TrialFailure, TrialOutcome, TrialSpec } from './types.js';

/** The schema, one entry per version (`PRAGMA user_version` counts those applied). */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE study_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE trials (
     key TEXT PRIMARY KEY,
     trial_index INTEGER NOT NULL,
     spec TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
     outcome TEXT,
     error TEXT
   ) WITHOUT ROWID;`,
];

/** A study file opened with other inputs than the ones it was started with. */
export class StudyMismatchError extends Error {
  constructor(
    readonly file: string,
    readonly differing: readonly string[],
  ) {
    super(
      `study ${file} was started with other inputs (${differing.join(', ')} ${differing.length === 1 ? 'differs' : 'differ'}): its trials would not compare with this run's. ` +
        'Run the original command to continue it, or name a new study (--study NAME or another --out).',
    );
    this.name = 'StudyMismatchError';
  }
}

export type FinishedTrial = { ok: true; spec: TrialSpec; outcome: TrialOutcome } | { ok: false; spec: TrialSpec; error: string };

/** The study's identity: plain JSON values, compared key by key. */
export type StudyIdentity = Readonly<Record<string, unknown>>;

function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) throw new Error(`study file schema version ${current} is newer than this build knows (${MIGRATIONS.length})`);
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** JSON with object keys sorted, so equal identities have equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export class StudyStore {
  private readonly db: Database.Database;
  private duplicateCount: number;

  private constructor(
    readonly file: string,
    db: Database.Database,
  ) {
    this.db = db;
    this.duplicateCount = Number(this.meta('duplicates') ?? '0');
  }

  /** Opens (or creates) the study file; refuses one started with another identity. */
  static open(file: string, identity: StudyIdentity): StudyStore {
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db);
      const store = new StudyStore(file, db);
      store.claim(identity);
      return store;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  private meta(name: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM study_meta WHERE name = ?').get(name) as { value: string } | undefined;
    return row?.value;
  }

  private claim(identity: StudyIdentity): void {
    const stored = this.meta('identity');
    if (stored === undefined) {
      this.db.prepare('INSERT INTO study_meta (name, value) VALUES (?, ?)').run('identity', canonicalJson(identity));
      return;
    }
    const before = JSON.parse(stored) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(before), ...Object.keys(identity)])].sort();
    const differing = keys.filter((k) => canonicalJson(before[k]) !== canonicalJson(identity[k]));
    if (differing.length > 0) throw new StudyMismatchError(this.file, differing);
  }

  /** Every finished trial (outcome or failure), by key. */
  finished(): Map<string, FinishedTrial> {
    const rows = this.db.prepare('SELECT key, spec, status, outcome, error FROM trials ORDER BY trial_index').all() as {
      key: string;
      spec: string;
      status: 'ok' | 'failed';
      outcome: string | null;
      error: string | null;
    }[];
    const out = new Map<string, FinishedTrial>();
    for (const r of rows) {
      const spec = JSON.parse(r.spec) as TrialSpec;
      out.set(r.key, r.status === 'ok' ? { ok: true, spec, outcome: JSON.parse(r.outcome ?? 'null') as TrialOutcome } : { ok: false, spec, error: r.error ?? '' });
    }
    return out;
  }

  /**
   * Records a trial's end once. Returns false (and counts it) when the key is already recorded:
   * the first report stands.
   */
  record(spec: TrialSpec, end: { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure }): boolean {
    const insert = this.db.prepare('INSERT OR IGNORE INTO trials (key, trial_index, spec, status, outcome, error) VALUES (?, ?, ?, ?, ?, ?)');
    const row = end.ok ? [spec.key, spec.index, JSON.stringify(spec), 'ok', JSON.stringify(end.outcome), null] : [spec.key, spec.index, JSON.stringify(spec), 'failed', null, end.failure.error];
    const inserted = insert.run(...row).changes === 1;
    if (!inserted) {
      this.duplicateCount += 1;
      this.db.prepare('INSERT INTO study_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run('duplicates', String(this.duplicateCount));
    }
    return inserted;
  }

  /** Forgets the failed trials, so the next run tries them again (`--retry-failed`). Returns how many. */
  forgetFailed(): number {
    return this.db.prepare("DELETE FROM trials WHERE status = 'failed'").run().changes;
  }

  /** Reports of an already recorded trial, ignored, over the study's life. */
  get duplicates(): number {
    return this.duplicateCount;
  }

  close(): void {
    this.db.close();
  }
}

/** A `RunnerEvents` that records what a strategy runner reports, for runner tests. */
import type { RunnerEvents } from '../../src/engine/strategy-runner.js';

export class RecordingEvents implements RunnerEvents {
  refusals: string[] = [];
  errors: string[] = [];
  quarantines: string[] = [];
  engine: unknown[] = [];
  refusal(_s: string, code: string): void {
    this.refusals.push(code);
  }
  strategyError(_s: string, code: string): void {
    this.errors.push(code);
  }
  engineError(_s: string, err: unknown): void {
    this.engine.push(err);
  }
  quarantined(s: string): void {
    this.quarantines.push(s);
  }
  placed(): void {}
}

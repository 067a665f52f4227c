/**
 * A secret value that cannot leak by accident: `String()`, JSON, `util.inspect` and template
 * literals all give `[redacted]`; only `reveal()` returns the value, and only the code that hands
 * a secret to its one user calls it (the API client; the console's token check and `npm run ctl`).
 */
import { inspect } from 'node:util';

export const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

/** The value of an optional secret, for the one place that hands it to a client. */
export function revealed(secret: Secret | null): string | undefined {
  return secret === null ? undefined : secret.reveal();
}

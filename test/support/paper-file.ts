/**
 * Reads a paper venue's state file (`<dataDir>/paper-venue.sqlite`) as the venue would restore it,
 * frozen at its stored time (a clock at 0 never catches up) and without writing to it: the
 * simulator's ground truth and brackets of its default account, for comparing with the bot's store
 * after a daemon stopped or was killed.
 */
import path from 'node:path';
import { ManualClock } from '../../src/core/clock.js';
import { PAPER_STATE_FILE } from '../../src/daemon/paper-venue.js';
import { bracketsOf } from '../../src/simulator/brackets.js';
import type { Bracket, Truth } from '../../src/simulator/index.js';
import { StateDb } from '../../src/simulator/persist/db.js';
import { restoreVenue } from '../../src/simulator/persist/restore.js';
import { truthOf } from '../../src/simulator/truth.js';

export function paperVenueOf(dataDir: string): { truth: Truth; brackets: Bracket[] } {
  const db = StateDb.open(path.join(dataDir, PAPER_STATE_FILE));
  try {
    const venue = restoreVenue(db.load(), { markets: [] }, new ManualClock(0), 1);
    const account = [...venue.accounts.values()][0];
    if (account === undefined) throw new Error('paper venue file without an account');
    return { truth: truthOf(venue, account), brackets: bracketsOf(account) };
  } finally {
    db.close();
  }
}

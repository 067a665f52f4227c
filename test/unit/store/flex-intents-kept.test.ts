/**
 * Flex close intents are kept between reads while none is written (flex-credit-repos.ts): every
 * write between two reads must be seen, a rolled-back write must leave nothing behind, and a caller
 * changing what it got must not change what the next caller gets.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, openStoreReadOnly, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest, memoryStore } from '../../support/test-scope.js';

const unsettled = (s: Store): string[] => s.flex.intents(['PENDING', 'UNKNOWN']).map((i) => `${i.id}:${i.state}`);

describe('flex intents kept between reads', () => {
  it('see every insert and state change between two reads', () => {
    const s = memoryStore();
    expect(unsettled(s)).toEqual([]);
    s.flex.insertIntent('a', 'treasury', 'p1', 1);
    expect(unsettled(s)).toEqual(['a:PENDING']);
    s.flex.insertIntent('b', 'treasury', 'p1', 2);
    s.flex.setIntent('a', 'UNKNOWN', { reason: 'timeout' }, 3);
    expect(unsettled(s)).toEqual(['a:UNKNOWN', 'b:PENDING']);
    s.flex.setIntent('b', 'DONE', { transactionId: 't1' }, 4);
    expect(unsettled(s)).toEqual(['a:UNKNOWN']);
    expect(s.flex.intents().map((i) => `${i.id}:${i.state}:${i.transactionId ?? ''}`)).toEqual(['a:UNKNOWN:', 'b:DONE:t1']);
  });

  it('a write rolled back is not seen; a caller changing its copy changes nothing kept', () => {
    const s = memoryStore();
    s.flex.insertIntent('a', 'treasury', 'p1', 1);
    expect(unsettled(s)).toEqual(['a:PENDING']);
    expect(() =>
      s.tx(() => {
        s.flex.setIntent('a', 'DONE', {}, 2);
        expect(unsettled(s)).toEqual([]);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(unsettled(s)).toEqual(['a:PENDING']);
    const [first] = s.flex.intents(['PENDING']);
    if (first === undefined) throw new Error('expected an intent');
    first.state = 'DONE';
    expect(unsettled(s)).toEqual(['a:PENDING']);
  });

  it('a read-only store (npm run status) sees an intent written after its first read', () => {
    const dataDir = tempDir();
    const clock = new ManualClock(0);
    const s = closeAfterTest(openStore({ dataDir, clock, logger: silentLogger() }));
    const reader = openStoreReadOnly(dataDir, clock);
    try {
      expect(reader.flex.intents(['PENDING'])).toEqual([]);
      s.flex.insertIntent('a', 'treasury', 'p1', 1);
      expect(reader.flex.intents(['PENDING']).map((i) => i.id)).toEqual(['a']);
    } finally {
      reader.close();
    }
  });
});

/**
 * The in-process endpoints' error replies (src/backtest/in-process-api.ts): the client's quirk
 * classification decides what a refusal means, remembered only for the very same reply; the
 * credit line without a loan is the venue's 400 refusal, read as "no active loan". Conditional
 * records read through the remembering reader are what the client's parser makes of them.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { AuthError } from '../../../src/core/errors.js';
import { conditionalReader, inProcessApi, quirkReader } from '../../../src/backtest/in-process-api.js';
import { parseConditionalPage } from '../../../src/exchange/parse.js';
import { REPLY_SAMPLES } from '../../../src/exchange/samples.js';
import { creditLine } from '../../../src/simulator/routes/account.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';

const NO_LOAN = { code: 0, message: 'No active loan at the moment', errors: {} };

function venue() {
  return new Venue(new ManualClock(1_700_000_000_000), 7, defaultMarkets(), 60_000);
}

describe('quirkReader', () => {
  it('classifies each reply by its status and text, never reusing a verdict for another reply', () => {
    const quirk = quirkReader();
    expect(quirk('creditLine', { status: 400, body: NO_LOAN })).toBe('no_active_loan');
    expect(quirk('creditLine', { status: 400, body: NO_LOAN })).toBe('no_active_loan');
    expect(quirk('creditLine', { status: 400, body: { ...NO_LOAN, message: 'Loan service busy' } })).toBeUndefined();
    expect(quirk('creditLine', { status: 404, body: NO_LOAN })).toBe('credit_line_disabled');
    expect(quirk('creditLine', { status: 400, body: { ...NO_LOAN, code: 1 } })).toBeUndefined();
    expect(quirk('creditLine', { status: 400, body: NO_LOAN })).toBe('no_active_loan');
    expect(quirk('executedHistory', { status: 400, body: NO_LOAN })).toBeUndefined();
    expect(quirk('creditLine', { status: 200, body: NO_LOAN })).toBeUndefined();
  });
});

describe('credit line in process', () => {
  it('answers the venue refusal without throwing, and the client reads it as no active loan, a loan, or a disabled line', async () => {
    const v = venue();
    const none = v.addAccount({ apiKey: 'a', apiSecret: 's', balances: { USDT: '1000' } });
    const ctx = { venue: v, options: { flatHistoryWithMarket: false } };
    expect(creditLine(ctx, none, {})).toEqual({ status: 400, body: NO_LOAN });
    const api = inProcessApi(v, none);
    expect(await api.creditLine()).toEqual({ active: false });
    expect(await api.creditLine()).toEqual({ active: false });

    const loan = { asset: 'USDT', amount: '20000', collateralAsset: 'BTC', collateralAmount: '1', marginCallLtv: '0.7' };
    const borrower = v.addAccount({ apiKey: 'b', apiSecret: 's', balances: { USDT: '1000', BTC: '1' }, loan });
    const state = await inProcessApi(v, borrower).creditLine();
    expect(state.active).toBe(true);

    const off = v.addAccount({ apiKey: 'c', apiSecret: 's', creditLineEnabled: false });
    await expect(inProcessApi(v, off).creditLine()).rejects.toBeInstanceOf(AuthError);
  });
});

describe('conditionalReader', () => {
  it('reads each record as the parser does, again for a changed record, and still refuses a malformed one every time', () => {
    const read = conditionalReader();
    const page = REPLY_SAMPLES.conditional;
    const plain = parseConditionalPage('conditionalOrders', page);
    expect(plain.records.length).toBeGreaterThan(1);
    expect(parseConditionalPage('conditionalOrders', page, read)).toEqual(plain);
    const again = parseConditionalPage('conditionalOrders', structuredClone(page), read);
    expect(again).toEqual(plain);
    expect(Object.isFrozen(again.records[0])).toBe(true);

    const changed = structuredClone(page) as unknown as { records: { id: number }[] };
    (changed.records[0] as { id: number }).id += 1;
    expect(parseConditionalPage('conditionalOrders', changed, read)).toEqual(parseConditionalPage('conditionalOrders', changed));
    expect(parseConditionalPage('conditionalOrders', changed, read).records[0]?.id).not.toBe(plain.records[0]?.id);

    const broken = { ...page, records: [{ type: 'neither', id: 1 }] };
    expect(() => parseConditionalPage('conditionalOrders', broken, read)).toThrow();
    expect(() => parseConditionalPage('conditionalOrders', broken, read)).toThrow();
  });
});

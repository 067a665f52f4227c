/** Flex investments: the venue's history records, the bot's close intents and what it stores. */
import type { Decimal } from '../core/decimal.js';

export type FlexActionType =
  | 'INVEST'
  | 'REINVEST'
  | 'WITHDRAW_FROM_INVESTMENT'
  | 'DAILY_EARNING'
  | 'CLOSE_INVESTMENT'
  | 'OPEN_INVESTMENT';

/** One flex history record, as the venue reports it. */
export interface FlexRecord {
  transactionId: string;
  createdAtMs: number;
  planId: string;
  investmentId: string;
  currency: string;
  amount: Decimal;
  actionType: FlexActionType;
}

/** A flex history record as stored: the action type is kept as read, even one this version does not know. */
export interface FlexRecordRow extends Omit<FlexRecord, 'actionType'> {
  actionType: string;
}

export interface FlexHistoryQuery {
  limit?: number;
  offset?: number;
  plan?: string;
  investment?: string;
  transaction?: string;
  /** Unix seconds. */
  dateFrom?: number;
  /** Unix seconds. */
  dateTo?: number;
  actionTypes?: FlexActionType[];
}

export interface FlexPage {
  records: FlexRecord[];
  limit: number;
  offset: number;
}

/** Flex investment history records to read. */
export interface FlexRecordQuery {
  /** Inclusive lower bound on `createdAtMs`; the venue bounds by whole seconds. */
  fromMs?: number;
  plan?: string;
  actionTypes?: FlexActionType[];
}

/** LOST: ambiguous close with no CLOSE_INVESTMENT in the history after the grace period. */
export type FlexIntentState = 'PENDING' | 'DONE' | 'REJECTED' | 'UNKNOWN' | 'LOST';

/** A journaled flex close. */
export interface FlexIntentRecord {
  id: string;
  strategyId: string;
  plan: string;
  state: FlexIntentState;
  transactionId: string | null;
  reason: string | null;
  createdMs: number;
  updatedMs: number;
}

import { describe, expect, it } from 'vitest';
import { ORDER_STATES, type OrderState } from '../../../src/core/orders.js';
import { canTransition, IllegalTransitionError, isTerminal, transition } from '../../../src/engine/order-state.js';

const LEGAL: Record<OrderState, OrderState[]> = {
  PENDING: ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'UNKNOWN'],
  OPEN: ['PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'PENDING_CANCEL'],
  PARTIALLY_FILLED: ['FILLED', 'CANCELLED', 'PENDING_CANCEL'],
  PENDING_CANCEL: ['CANCELLED', 'FILLED', 'OPEN', 'PARTIALLY_FILLED', 'UNKNOWN'],
  UNKNOWN: ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED'],
  FILLED: [],
  CANCELLED: [],
  REJECTED: [],
};

describe('order state machine', () => {
  for (const from of ORDER_STATES) {
    for (const to of ORDER_STATES) {
      const legal = LEGAL[from].includes(to);
      it(`${from} → ${to} is ${legal ? 'legal' : 'illegal'}`, () => {
        expect(canTransition(from, to)).toBe(legal);
        if (legal) expect(transition(from, to)).toBe(to);
        else expect(() => transition(from, to)).toThrow(IllegalTransitionError);
      });
    }
  }

  it('never lets an ambiguous order become REJECTED', () => {
    expect(canTransition('UNKNOWN', 'REJECTED')).toBe(false);
    expect(canTransition('PENDING_CANCEL', 'REJECTED')).toBe(false);
  });

  it('terminal states are exactly FILLED, CANCELLED, REJECTED', () => {
    expect(ORDER_STATES.filter(isTerminal).sort()).toEqual(['CANCELLED', 'FILLED', 'REJECTED']);
  });
});

/** The messages between the custom objective's host (objective.ts) and its worker (objective-entry.ts). */

/** A reply to one outcome: what the objective returned, or why it did not. */
export type ObjectiveReply = { id: number; ok: true; value: number | string | null } | { id: number; ok: false; message: string };

/** Posted once the module is evaluated (or failed to be): the per-call time bound starts after it. */
export const READY = 'ready';

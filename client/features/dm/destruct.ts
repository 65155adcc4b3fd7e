/**
 * The self-destruct overlay's three sequences (spec 001 §4): the KILL SWITCH (3 s, then the
 * delete call), a thread whose expiresAt passed (1.5 s, then the delete call) and a thread the
 * other party deleted (2 s, then the thread closes).
 */
import {
  DM_EXPIRY_DESTRUCT_MS,
  DM_MANUAL_DESTRUCT_MS,
  DM_REMOTE_DELETE_NOTICE_MS,
} from './dm-constants.js';

export type DestructKind = 'manual' | 'expired' | 'remote';

export interface DestructSequence {
  kind: DestructKind;
  threadId: string;
}

export const DESTRUCT_DURATION_MS: Record<DestructKind, number> = {
  manual: DM_MANUAL_DESTRUCT_MS,
  expired: DM_EXPIRY_DESTRUCT_MS,
  remote: DM_REMOTE_DELETE_NOTICE_MS,
};

export const DESTRUCT_TEXT: Record<DestructKind, { title: string; detail: string }> = {
  manual: {
    title: 'SELF-DESTRUCT SEQUENCE INITIATED',
    detail: 'Purging every message of this conversation from the network...',
  },
  expired: {
    title: 'AUTO-DESTRUCT TIMER EXPIRED',
    detail: 'This conversation reached its expiry and is being purged...',
  },
  remote: {
    title: 'CONVERSATION TERMINATED',
    detail: 'The other party destroyed this conversation.',
  },
};

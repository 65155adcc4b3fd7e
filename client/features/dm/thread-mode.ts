/**
 * What each thread mode may honestly claim. 'e2e': the thread key is wrapped in the creator's
 * browser to each participant's encryption key, and the server stores only the wrapped forms.
 * 'server-assisted': one participant's key predates encryption keys, so the server made and holds
 * the thread key and could read the messages. Never call that end-to-end.
 */
import { type DmThread } from '../../../shared/protocol/http/dm.js';

export type DmThreadMode = DmThread['mode'];

export const MODE_BADGE: Record<DmThreadMode, string> = {
  e2e: 'E2E',
  'server-assisted': 'SERVER-ASSISTED',
};

/** The label of the thread view (spec 001 §2; server-assisted threads do not claim E2E). */
export const MODE_LABEL: Record<DmThreadMode, string> = {
  e2e: 'End-to-End Encrypted',
  'server-assisted': 'Server-assisted encryption',
};

/** One plain sentence per mode, for the legend and the thread view. */
export const MODE_EXPLANATION: Record<DmThreadMode, string> = {
  e2e: 'Only the two participants can read it: the thread key was wrapped in a browser to each key and the server stores ciphertext only.',
  'server-assisted':
    'One participant holds a key made before encryption keys existed, so the server holds the thread key and could read these messages.',
};

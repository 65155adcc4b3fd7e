/**
 * What a thread may honestly claim. Every thread is end to end: its key is made and wrapped in
 * the creator's browser to each participant's encryption key, and the creator signs the grant.
 * (Server-assisted threads were removed: docs/decisions.md.)
 */
export const MODE_BADGE = 'E2E';

/** The label of the thread view (spec 001 §2). */
export const MODE_LABEL = 'End-to-End Encrypted';

/** One plain sentence, for the legend and the thread view. */
export const MODE_EXPLANATION =
  "Only the two participants can read it: the thread key was made and wrapped in the creator's browser, signed with their identity key, and the server stores ciphertext only.";

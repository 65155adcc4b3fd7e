/**
 * The bot-check dialog's state (spec 000 §2, §4 "Bot challenge"; spec 001 §2, §8) as a pure
 * reducer over the server's frames and the user's actions:
 *
 * - `bot_challenge` opens the dialog with the proof-of-work puzzle, which the browser solves by
 *   itself (use-bot-challenge.ts) and answers;
 * - `bot_challenge_failed` keeps it open with the server's message in its error area;
 * - `bot_challenge_success` closes it (the caller toasts 'Verification Successful');
 * - `bot_detected` replaces the question by the server's message and a disconnect notice: the
 *   server closes the socket and bans the address for ten minutes, so there is nothing left to
 *   answer and no page to go to; the chat's own banner then offers RECONNECT;
 * - closing a pending challenge only hides it: the server still refuses to relay messages, and
 *   its 'Complete the security verification first' error brings the dialog back.
 */
import { TEXT } from '../../../shared/protocol/errors.js';

/** A pending proof-of-work challenge (shared/crypto/proof-of-work.ts). */
export interface BotChallenge {
  challengeId: string;
  /** Hex SHA-256 of salt ‖ number. */
  challenge: string;
  message: string;
  salt: string;
  /** The number searched for is at most this: the work asked. */
  maxnumber: number;
}

export type BotChallengeState =
  | { phase: 'idle' }
  | { phase: 'open'; challenge: BotChallenge; error: string | null }
  | { phase: 'hidden'; challenge: BotChallenge }
  | { phase: 'detected'; message: string };

export type BotChallengeEvent =
  | { type: 'challenge'; challenge: BotChallenge }
  | { type: 'failed'; message: string }
  | { type: 'success' }
  | { type: 'detected'; message: string }
  | { type: 'pending-refusal' }
  | { type: 'not-sent' }
  | { type: 'close' };

export const IDLE: BotChallengeState = { phase: 'idle' };

/** The pending challenge, shown or hidden: the browser works on it either way. */
export function pendingChallenge(state: BotChallengeState): BotChallenge | null {
  return state.phase === 'open' || state.phase === 'hidden' ? state.challenge : null;
}

/** Shown when the answer could not be sent because the socket is closed. */
export const ANSWER_NOT_SENT = 'Connection lost: the answer was not sent. Reconnect and try again.';

export function botChallengeReducer(
  state: BotChallengeState,
  event: BotChallengeEvent,
): BotChallengeState {
  switch (event.type) {
    case 'challenge':
      return { phase: 'open', challenge: event.challenge, error: null };
    case 'failed':
      if (state.phase === 'open' || state.phase === 'hidden') {
        return { phase: 'open', challenge: state.challenge, error: event.message };
      }
      return state;
    case 'success':
      return IDLE;
    case 'detected':
      return { phase: 'detected', message: event.message };
    case 'pending-refusal':
      return state.phase === 'hidden'
        ? { phase: 'open', challenge: state.challenge, error: TEXT.verificationPending }
        : state;
    case 'not-sent':
      return state.phase === 'open' ? { ...state, error: ANSWER_NOT_SENT } : state;
    case 'close':
      if (state.phase === 'open') return { phase: 'hidden', challenge: state.challenge };
      return state.phase === 'detected' ? IDLE : state;
  }
}

/** The dialog's props as the state gives them. */
export function botChallengeView(state: BotChallengeState): {
  challenge: BotChallenge | null;
  error: string | null;
} {
  if (state.phase === 'open') return { challenge: state.challenge, error: state.error };
  if (state.phase === 'detected') return { challenge: null, error: state.message };
  return { challenge: null, error: null };
}

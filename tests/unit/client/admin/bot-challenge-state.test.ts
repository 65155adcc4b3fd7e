/** The bot-check dialog's state (spec 000 §2, §4 "Bot challenge"; spec 001 §2, §8). */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { ABUSE_TEXT } from '../../../../server/features/abuse/index.js';
import {
  ANSWER_NOT_SENT,
  IDLE,
  botChallengeReducer,
  botChallengeView,
  type BotChallengeEvent,
  type BotChallengeState,
} from '../../../../client/features/admin/bot-challenge-state.js';

const challenge = {
  challengeId: 'c-1',
  challenge: 'ab'.repeat(32),
  message: ABUSE_TEXT.challenge,
  salt: '00112233445566778899aabb?expires=1800000000',
  maxnumber: 100_000,
};

function run(...events: BotChallengeEvent[]): BotChallengeState {
  return events.reduce(botChallengeReducer, IDLE);
}

describe('bot challenge state', () => {
  it('opens on a challenge with no error', () => {
    expect(botChallengeView(run({ type: 'challenge', challenge }))).toEqual({
      challenge,
      error: null,
    });
  });

  it("shows the server's failure message inside the dialog", () => {
    const state = run(
      { type: 'challenge', challenge },
      { type: 'failed', message: ABUSE_TEXT.failed(2) },
    );
    expect(botChallengeView(state)).toEqual({
      challenge,
      error: 'Incorrect answer. 2 attempts left.',
    });
  });

  it('closes on success', () => {
    expect(run({ type: 'challenge', challenge }, { type: 'success' })).toEqual(IDLE);
  });

  it('replaces the question by the bot_detected message, which only closes', () => {
    const detected = run(
      { type: 'challenge', challenge },
      { type: 'detected', message: ABUSE_TEXT.detected },
    );
    expect(botChallengeView(detected)).toEqual({ challenge: null, error: ABUSE_TEXT.detected });
    expect(botChallengeReducer(detected, { type: 'close' })).toEqual(IDLE);
  });

  it('hides a closed challenge and brings it back when the server refuses a message for it', () => {
    const hidden = run({ type: 'challenge', challenge }, { type: 'close' });
    expect(botChallengeView(hidden)).toEqual({ challenge: null, error: null });
    expect(TEXT.verificationPending).toBe(ABUSE_TEXT.pending);
    expect(botChallengeView(botChallengeReducer(hidden, { type: 'pending-refusal' }))).toEqual({
      challenge,
      error: TEXT.verificationPending,
    });
    // Without a pending challenge the refusal means nothing here.
    expect(run({ type: 'pending-refusal' })).toEqual(IDLE);
  });

  it('says so when the answer could not be sent', () => {
    const state = run({ type: 'challenge', challenge }, { type: 'not-sent' });
    expect(botChallengeView(state).error).toBe(ANSWER_NOT_SENT);
  });

  it('a new challenge replaces an old one and clears its error', () => {
    const next = { ...challenge, challengeId: 'c-2', challenge: 'What is 5 × 6?' };
    const state = run(
      { type: 'challenge', challenge },
      { type: 'failed', message: 'x' },
      { type: 'challenge', challenge: next },
    );
    expect(botChallengeView(state)).toEqual({ challenge: next, error: null });
  });
});

/**
 * Drives the bot-check dialog from the chat's socket (see bot-challenge-state.ts for the rules).
 * Give it the socket's `onFrame` and `send`; spread its result into <BotChallengeDialog>.
 * A challenge is a proof of work: the browser searches for its number in short slices (the page
 * stays responsive), reports progress, and sends the number as the answer. The work goes on while
 * the dialog is hidden; a new challenge (or leaving) stops the old one.
 * `onVerified` runs after a passed challenge: the chat uses it to join again when the challenge
 * had stopped a join (the server drops the frame that raised the challenge).
 */
import { useCallback, useEffect, useEffectEvent, useReducer, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import {
  IDLE,
  botChallengeReducer,
  botChallengeView,
  pendingChallenge,
  type BotChallenge,
} from './bot-challenge-state.js';

/** How far the browser is with the pending challenge's work. */
export interface BotChallengeProgress {
  /** Share of the puzzle's range searched, 0..1. */
  share: number;
  /** True once the answer has been sent and the server's verdict is awaited. */
  isSubmitted: boolean;
}

export interface BotChallengeControls {
  challenge: BotChallenge | null;
  error: string | null;
  progress: BotChallengeProgress | null;
  onClose: () => void;
}

export function useBotChallenge(
  onFrame: OnFrame,
  send: SendFrame,
  onVerified?: () => void,
): BotChallengeControls {
  const [state, dispatch] = useReducer(botChallengeReducer, IDLE);
  const verified = useEffectEvent(() => onVerified?.());

  useEffect(() => {
    const offs = [
      onFrame('bot_challenge', (frame) =>
        dispatch({
          type: 'challenge',
          challenge: {
            challengeId: frame.challengeId,
            challenge: frame.challenge,
            message: frame.message,
            salt: frame.salt,
            maxnumber: frame.maxnumber,
          },
        }),
      ),
      onFrame('bot_challenge_success', () => {
        dispatch({ type: 'success' });
        toast({ title: TEXT.verificationSuccessful, variant: 'success' });
        verified();
      }),
      onFrame('bot_challenge_failed', (frame) =>
        dispatch({ type: 'failed', message: frame.message }),
      ),
      onFrame('bot_detected', (frame) => dispatch({ type: 'detected', message: frame.message })),
      onFrame('error', (frame) => {
        if (frame.message === TEXT.verificationPending) dispatch({ type: 'pending-refusal' });
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [onFrame]);

  // The work for the pending challenge, keyed by its id so a new challenge starts afresh.
  const pending = pendingChallenge(state);
  const [progress, setProgress] = useState<(BotChallengeProgress & { id: string }) | null>(null);
  const answer = useEffectEvent((challengeId: string, number: number) => {
    if (!send({ type: 'bot_challenge_response', challengeId, answer: String(number) })) {
      dispatch({ type: 'not-sent' });
    }
  });
  useEffect(() => {
    if (!pending) return;
    const controller = new AbortController();
    const { challengeId } = pending;
    // The solver (SHA-256) is fetched with the first challenge, not before the page paints.
    void import('../../../shared/crypto/proof-of-work.js')
      .then(({ solvePowChallenge }) =>
        solvePowChallenge(pending, {
          signal: controller.signal,
          onProgress: (share) => setProgress({ id: challengeId, share, isSubmitted: false }),
        }),
      )
      .then(
        (number) => {
          if (number === null || controller.signal.aborted) return;
          setProgress({ id: challengeId, share: 1, isSubmitted: true });
          answer(challengeId, number);
        },
        () => undefined, // aborted: a newer challenge or the page took over
      );
    return () => controller.abort();
    // `pending` is the same object while the challenge is shown, hidden or failed, so only a new
    // challenge restarts the work.
  }, [pending]);

  const onClose = useCallback(() => dispatch({ type: 'close' }), []);
  const view = botChallengeView(state);
  const current =
    progress && view.challenge && progress.id === view.challenge.challengeId
      ? { share: progress.share, isSubmitted: progress.isSubmitted }
      : null;
  return { ...view, progress: current, onClose };
}

/**
 * Drives the bot-check dialog from the chat's socket (see bot-challenge-state.ts for the rules).
 * Give it the socket's `onFrame` and `send`; spread its result into <BotChallengeDialog>.
 * `onVerified` runs after a passed challenge: the chat uses it to join again when the challenge
 * had stopped a join (the server drops the frame that raised the challenge).
 */
import { useCallback, useEffect, useEffectEvent, useReducer } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';
import { type OnFrame, type SendFrame } from './admin-socket.js';
import {
  IDLE,
  botChallengeReducer,
  botChallengeView,
  type BotChallenge,
} from './bot-challenge-state.js';

export interface BotChallengeControls {
  challenge: BotChallenge | null;
  error: string | null;
  onSubmit: (answer: string) => void;
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

  const challengeId = state.phase === 'open' ? state.challenge.challengeId : null;
  const onSubmit = useCallback(
    (answer: string) => {
      const trimmed = answer.trim();
      if (challengeId === null || trimmed === '') return;
      if (!send({ type: 'bot_challenge_response', challengeId, answer: trimmed })) {
        dispatch({ type: 'not-sent' });
      }
    },
    [challengeId, send],
  );
  const onClose = useCallback(() => dispatch({ type: 'close' }), []);

  return { ...botChallengeView(state), onSubmit, onClose };
}

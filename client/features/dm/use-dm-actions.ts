/**
 * Sending on the direct-messages screen: replies in the open thread and the new-conversation
 * dialog's first message, with the spec's failure texts (spec 001 §8): 'Failed to create
 * conversation thread' or 'Failed to send message' are logged, and the toast says 'Error /
 * Failed to send message. Please try again.'. A recipient key that fails its signature check
 * gets its own toast: nothing is wrapped to it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { type SendFrame } from '../../lib/admin/admin-socket.js';
import { dmKeys } from './dm-api.js';
import { KeyChangedError, RecipientKeyUnverifiedError } from './contact-identity.js';
import { NoEncryptionKeyError, type DmClient } from './dm-client.js';
import { DM_KEY_CHANGED_TOAST } from './dm-constants.js';
import { reportDmError } from './dm-errors.js';

/** A failure of the new-conversation flow, with the step that failed. */
class ConversationStepError extends Error {
  override readonly name = 'ConversationStepError';
  constructor(
    readonly step: 'create' | 'send',
    cause: unknown,
  ) {
    super(step === 'create' ? TEXT.dmCreateThreadFailed : TEXT.dmSendFailed, { cause });
  }
}

export interface DmActions {
  /** Resolves true once the reply is stored and announced. */
  sendReply: (thread: DmThread, text: string, timerSeconds: number) => Promise<boolean>;
  isSendingReply: boolean;
  /** Resolves to the new (or existing) thread once its first message is stored, else null. */
  startConversation: (
    recipientKeyId: string,
    text: string,
    timerSeconds: number,
  ) => Promise<DmThread | null>;
  isStarting: boolean;
}

/** Posts through DmClient, then announces with `dm_send_message`. */
async function sendToThread(
  client: DmClient,
  thread: DmThread,
  text: string,
  timerSeconds: number,
  send: SendFrame,
): Promise<void> {
  await client.send(thread, text, timerSeconds);
  // The message is stored; a socket that is down only delays the other side's refresh.
  send({
    type: 'dm_send_message',
    threadId: thread.id,
    recipientKeyId: thread.otherParticipantKeyId,
  });
}

/** The toast text for a refusal the user must see as such (never 'try again'). */
function refusalText(cause: unknown): string | null {
  if (cause instanceof KeyChangedError) return DM_KEY_CHANGED_TOAST;
  if (cause instanceof RecipientKeyUnverifiedError || cause instanceof NoEncryptionKeyError) {
    return cause.message;
  }
  return null;
}

export function useDmActions(client: DmClient, send: SendFrame): DmActions {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    (threadId: string | null) => {
      void queryClient.invalidateQueries({ queryKey: dmKeys.threads });
      if (threadId) void queryClient.invalidateQueries({ queryKey: dmKeys.messages(threadId) });
    },
    [queryClient],
  );

  const reply = useMutation({
    mutationFn: (input: { thread: DmThread; text: string; timerSeconds: number }) =>
      sendToThread(client, input.thread, input.text, input.timerSeconds, send),
    onSuccess: (_, input) => refresh(input.thread.id),
    onError: (error, input) => {
      reportDmError(TEXT.dmSendFailed, error, refusalText(error) ?? TEXT.dmSendFailedRetry);
      // A refusal may mean the identity changed: show the thread's new state.
      refresh(input.thread.id);
    },
  });

  const start = useMutation({
    mutationFn: async (input: { recipientKeyId: string; text: string; timerSeconds: number }) => {
      let thread: DmThread;
      try {
        thread = await client.startConversation(input.recipientKeyId);
      } catch (error) {
        throw new ConversationStepError('create', error);
      }
      try {
        await sendToThread(client, thread, input.text, input.timerSeconds, send);
      } catch (error) {
        throw new ConversationStepError('send', error);
      }
      return thread;
    },
    onSuccess: (thread) => refresh(thread.id),
    onError: (error) => {
      const cause = error instanceof ConversationStepError ? error.cause : error;
      const refusal = refusalText(cause);
      if (refusal !== null) {
        reportDmError(TEXT.dmCreateThreadFailed, cause, refusal);
      } else {
        reportDmError(error.message, cause, TEXT.dmSendFailedRetry);
      }
      // A thread may exist even though its first message failed.
      refresh(null);
    },
  });

  const { mutateAsync: replyAsync } = reply;
  const { mutateAsync: startAsync } = start;
  const sendReply = useCallback(
    (thread: DmThread, text: string, timerSeconds: number) =>
      replyAsync({ thread, text, timerSeconds }).then(
        () => true,
        () => false,
      ),
    [replyAsync],
  );
  const startConversation = useCallback(
    (recipientKeyId: string, text: string, timerSeconds: number) =>
      startAsync({ recipientKeyId, text, timerSeconds }).then(
        (thread) => thread,
        () => null,
      ),
    [startAsync],
  );
  return {
    sendReply,
    isSendingReply: reply.isPending,
    startConversation,
    isStarting: start.isPending,
  };
}

/**
 * Runs the self-destruct sequences of spec 001 §4 one at a time:
 *
 * - manual (KILL SWITCH): 3 s, then DELETE; on success `dm_thread_delete` tells the other side,
 *   the thread closes and 'Thread Deleted / Conversation has been permanently destroyed.' shows;
 *   on failure 'Error / Failed to delete conversation. Please try again.' and the thread stays;
 * - expired: 1.5 s, then DELETE and `dm_thread_delete` when this tab noticed the expiry (a failure
 *   is only logged), and the thread closes either way;
 * - remote (the other party deleted it): 2 s, the thread closes, and 'Thread Deleted / This
 *   conversation has been deleted by the other party.' shows.
 *
 * A sequence that starts while another runs is ignored: the first one decides.
 */
import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { toast } from '../../ui/use-toast.js';
import { type SendFrame } from '../../lib/admin/admin-socket.js';
import { DESTRUCT_DURATION_MS, type DestructKind } from './destruct.js';
import { deleteThread } from './dm-api.js';
import { logDmError, reportDmError } from './dm-errors.js';

export interface DestructRun {
  kind: DestructKind;
  thread: DmThread;
  /** False when the server already deleted the thread (it told us so). */
  needsDelete: boolean;
}

export function useThreadDestruct(send: SendFrame, onClosed: (threadId: string) => void) {
  const [run, setRun] = useState<DestructRun | null>(null);
  const start = useCallback((next: DestructRun) => setRun((current) => current ?? next), []);

  const destroyOnServer = async (thread: DmThread) => {
    await deleteThread(thread.id);
    send({
      type: 'dm_thread_delete',
      threadId: thread.id,
      recipientKeyId: thread.otherParticipantKeyId,
    });
  };

  const finish = useEffectEvent(async (current: DestructRun) => {
    const { thread } = current;
    if (current.kind === 'manual') {
      try {
        await destroyOnServer(thread);
        onClosed(thread.id);
        toast({
          title: TEXT.dmThreadDeletedTitle,
          description: TEXT.dmThreadDestroyed,
          variant: 'success',
        });
      } catch (error) {
        reportDmError('Failed to delete thread', error, TEXT.dmDeleteFailedRetry);
      }
    } else if (current.kind === 'expired') {
      if (current.needsDelete) {
        await destroyOnServer(thread).catch((error: unknown) =>
          logDmError(TEXT.dmAutoDeleteFailed, error),
        );
      }
      onClosed(thread.id);
    } else {
      onClosed(thread.id);
      toast({ title: TEXT.dmThreadDeletedTitle, description: TEXT.dmThreadDeletedByOther });
    }
    setRun(null);
  });

  useEffect(() => {
    if (!run) return;
    const timer = window.setTimeout(() => void finish(run), DESTRUCT_DURATION_MS[run.kind]);
    return () => window.clearTimeout(timer);
  }, [run]);

  return { run, start };
}

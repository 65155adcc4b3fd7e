/**
 * The unlocked direct-messages screen (spec 001 §2, §4): header, 'ENCRYPTED CONVERSATIONS', the
 * full-screen thread view, the new-conversation dialog, the self-destruct overlay, the fixed
 * 'YOUR SECURE ID' badge and the bot-check dialog. It owns the DM socket: dm_thread_updated and
 * dm_message_received refresh the list and the open thread, dm_thread_deleted closes it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { secureIdForKey } from '../../../shared/ids.js';
import { type SessionUser } from '../../../shared/protocol/http/auth.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { STORAGE_KEYS, readStorage, removeStorage } from '../../lib/storage-keys.js';
import { BotChallengeDialog, useBotChallenge } from '../admin/index.js';
import { DestructOverlay } from './DestructOverlay.js';
import { LocalStoragePinStore } from '../e2ee/index.js';
import { createDmApi, dmKeys } from './dm-api.js';
import { DmClient } from './dm-client.js';
import { LocalStorageCounterStore, LocalStorageVerifiedStore } from './dm-local-stores.js';
import { DM_TICK_MS } from './dm-constants.js';
import { DmHeader } from './DmHeader.js';
import { NewConversationDialog } from './NewConversationDialog.js';
import { parseStoredTarget } from './recipient-match.js';
import { SecureIdBadge } from './SecureIdBadge.js';
import { ThreadList } from './ThreadList.js';
import { ThreadView } from './ThreadView.js';
import { useDmActions } from './use-dm-actions.js';
import { useBackToChatPath, useDmThreads, useThreadReading } from './use-dm-queries.js';
import { useDmSocket } from './use-dm-socket.js';
import { useNow } from '../../lib/use-now.js';
import { useThreadDestruct } from './use-thread-destruct.js';

export interface DmScreenProps {
  user: SessionUser;
  sessionToken: string;
  keyFile: KeyFile;
}

/** The page's DmClient: pins, verified marks and counters in localStorage, the real clock. */
function pageDmClient(keyFile: KeyFile): DmClient {
  return new DmClient({
    api: createDmApi(),
    keyFile,
    pins: new LocalStoragePinStore(),
    verified: new LocalStorageVerifiedStore(),
    counters: new LocalStorageCounterStore(),
    now: () => Date.now(),
  });
}

export function DmScreen({ user, sessionToken, keyFile }: DmScreenProps) {
  const queryClient = useQueryClient();
  const socket = useDmSocket(sessionToken);
  const botChallenge = useBotChallenge(socket.onFrame, socket.send);
  const client = useMemo(() => pageDmClient(keyFile), [keyFile]);
  const threadsQuery = useDmThreads();
  const threads = useMemo(() => threadsQuery.data ?? [], [threadsQuery.data]);
  const backPath = useBackToChatPath();
  const actions = useDmActions(client, socket.send);

  const [openThread, setOpenThread] = useState<DmThread | null>(null);
  // The list's copy is the fresher one (its expiry grows with each message).
  const current = openThread ? (threads.find((t) => t.id === openThread.id) ?? openThread) : null;

  // A recipient handed over by another screen opens the dialog once, then is forgotten.
  const [initialTarget] = useState(() => parseStoredTarget(readStorage(STORAGE_KEYS.dmTargetUser)));
  const [isNewOpen, setIsNewOpen] = useState(initialTarget !== null);
  useEffect(() => {
    removeStorage(STORAGE_KEYS.dmTargetUser);
  }, []);

  // The thread's reading leaves memory with its view (useThreadReading's gcTime 0: once nothing
  // shows it), not here: removed while the view was still mounted, its next tick fetched it
  // again, and the 404 of a deleted thread replaced the destruction notice with an error.
  const closeThread = useCallback(
    (threadId: string) => {
      setOpenThread((open) => (open?.id === threadId ? null : open));
      void queryClient.invalidateQueries({ queryKey: dmKeys.threads });
    },
    [queryClient],
  );
  const destruct = useThreadDestruct(socket.send, closeThread);

  const refreshThread = useEffectEvent((threadId: string) => {
    void queryClient.invalidateQueries({ queryKey: dmKeys.threads }, { cancelRefetch: false });
    if (openThread?.id === threadId) {
      void queryClient.invalidateQueries(
        { queryKey: dmKeys.messages(threadId) },
        { cancelRefetch: false },
      );
    }
  });
  const onThreadDeleted = useEffectEvent((threadId: string, reason: 'deleted' | 'expired') => {
    if (current?.id === threadId) {
      destruct.start({
        kind: reason === 'deleted' ? 'remote' : 'expired',
        thread: current,
        needsDelete: false,
      });
    } else {
      void queryClient.invalidateQueries({ queryKey: dmKeys.threads });
    }
  });
  const { onFrame } = socket;
  useEffect(() => {
    const offs = [
      onFrame('dm_thread_updated', (frame) => refreshThread(frame.threadId)),
      onFrame('dm_message_received', (frame) => refreshThread(frame.threadId)),
      onFrame('dm_thread_deleted', (frame) => onThreadDeleted(frame.threadId, frame.reason)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [onFrame]);

  // Notices missed while the link was down: catch up whenever it comes back.
  const catchUp = useEffectEvent(() => {
    void queryClient.invalidateQueries({ queryKey: dmKeys.threads }, { cancelRefetch: false });
    if (openThread)
      void queryClient.invalidateQueries({ queryKey: dmKeys.messages(openThread.id) });
  });
  useEffect(() => {
    if (socket.link === 'online') catchUp();
  }, [socket.link]);

  // The open thread's own expiry: 1.5 s animation, delete, close (spec 001 §4).
  const { start: startDestruct } = destruct;
  useEffect(() => {
    if (!current) return;
    const msLeft = Math.max(0, Date.parse(current.expiresAt) - Date.now());
    const timer = window.setTimeout(
      () => startDestruct({ kind: 'expired', thread: current, needsDelete: true }),
      msLeft,
    );
    return () => window.clearTimeout(timer);
  }, [current, startDestruct]);

  const startConversation = async (recipientKeyId: string, text: string, timerSeconds: number) => {
    const thread = await actions.startConversation(recipientKeyId, text, timerSeconds);
    if (thread) setOpenThread(thread);
    return thread !== null;
  };

  const mySecureId = user.secureId ? user.secureId.toUpperCase() : secureIdForKey(user.keyId);

  return (
    <div className="min-h-screen bg-background text-fg">
      {current ? (
        <OpenThread
          thread={current}
          myKeyId={user.keyId}
          client={client}
          isDestructing={destruct.run !== null}
          onBack={() => setOpenThread(null)}
          onKill={() => destruct.start({ kind: 'manual', thread: current, needsDelete: true })}
          onSend={(text, timerSeconds) => actions.sendReply(current, text, timerSeconds)}
          isSending={actions.isSendingReply}
        />
      ) : (
        <>
          <DmHeader
            backPath={backPath}
            link={socket.link}
            onReconnect={socket.reconnect}
            onNewConversation={() => setIsNewOpen(true)}
          />
          <main className="mx-auto max-w-4xl px-3 pt-4 pb-28 sm:px-4 sm:pt-6">
            <ThreadList
              threads={threads}
              isLoading={threadsQuery.isPending}
              isError={threadsQuery.isError}
              onRetry={() => void threadsQuery.refetch()}
              onOpen={setOpenThread}
            />
          </main>
          <SecureIdBadge secureId={mySecureId} />
        </>
      )}
      <NewConversationDialog
        open={isNewOpen}
        onOpenChange={setIsNewOpen}
        initialRecipient={initialTarget ?? ''}
        myKeyId={user.keyId}
        isSending={actions.isStarting}
        onSend={startConversation}
      />
      {destruct.run ? <DestructOverlay kind={destruct.run.kind} /> : null}
      <BotChallengeDialog {...botChallenge} />
    </div>
  );
}

interface OpenThreadProps {
  thread: DmThread;
  myKeyId: string;
  client: DmClient;
  isDestructing: boolean;
  onBack: () => void;
  onKill: () => void;
  onSend: (text: string, timerSeconds: number) => Promise<boolean>;
  isSending: boolean;
}

/** The thread view with its checked reading, a clock for the countdowns, and the verify action. */
function OpenThread({ client, ...props }: OpenThreadProps) {
  const queryClient = useQueryClient();
  const reading = useThreadReading(props.thread, client);
  const now = useNow(DM_TICK_MS);
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: dmKeys.messages(props.thread.id) });
  return (
    <ThreadView
      {...props}
      reading={reading.data ?? null}
      isLoading={reading.isPending}
      isError={reading.isError}
      now={now}
      onMarkVerified={(contact) => {
        client.markVerified(contact);
        refresh();
      }}
      onClearVerified={(keyId) => {
        client.clearVerified(keyId);
        refresh();
      }}
    />
  );
}

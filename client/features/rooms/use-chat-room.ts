/**
 * The live chat of one room (spec 000 §4 "Chat connection", §7): owns the ChatSocket, joins the
 * room once connected (and again after every reconnect or room switch), turns server frames into
 * ChatRoomState through the pure reducer, and performs the side effects the reducer must not:
 * decryption through the MessageCipher, sounds, toasts, navigation and room query updates.
 *
 * Faults are ordinary (issue 35): a lost connection comes back by itself (ChatSocket) and joins
 * the room again with the grant this tab holds; the room keys are agreed again by the e2ee
 * feature on that join. Messages typed meanwhile are held, shown pending, and leave once the keys
 * are ready (never in clear). A removal or a destroyed room holds the socket: no reconnect; the
 * errors that answer frames the removal overtook are not shown over its notice (room-errors.ts).
 * A message the relay refused, or that the connection lost before its echo, shows NOT SENT with
 * RESEND (OutgoingLedger).
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useEffectEvent,
  useReducer,
  useState,
  useSyncExternalStore,
} from 'react';
import { useLocation } from 'wouter';
import { navigate as navigateBrowser } from 'wouter/use-browser-location';
import { rememberReturnPath } from '../../lib/session/service-status.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import type { MessagePayload } from '../../../shared/protocol/message-payload.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import type { ClientFrame } from '../../../shared/protocol/ws/index.js';
import {
  ChatSocket,
  chatSocketUrl,
  type ChatConnectionStatus,
  type ChatLink,
  type ServerFrameOf,
} from '../../lib/realtime/chat-socket.js';
import { playSound } from '../../lib/sounds.js';
import { toast } from '../../ui/use-toast.js';
import { type SystemLevel, type PendingSend } from '../messages/index.js';
import {
  encryptedMarker,
  SendCancelledError,
  type EncryptedOutgoing,
  type MessageCipher,
} from '../../lib/message-cipher.js';
import { roomKeys } from '../../lib/rooms/api.js';
import { forgetKnownRoom } from '../../lib/rooms/known-rooms.js';
import { chatRoomReducer, initialChatRoomState, type ChatRoomState } from './chat-room-state.js';
import { getRoomAccessToken, setRoomAccessToken } from '../../lib/rooms/room-access.js';
import { waitForServerTrust } from '../../lib/privacy/server-trust.js';
import { OutgoingLedger, type InFlightSend } from './outgoing-ledger.js';
import { isEchoOfRemoval } from './room-errors.js';

export interface UseChatRoomOptions {
  room: Room | null;
  /** The callsign, or the key holder's username (the server uses the session's name then). */
  username: string;
  /** Key holders' session token: it lets them into every room without a code. */
  sessionToken: string | null;
  cipher: MessageCipher;
  /** Called for each message from someone else, e.g. to count unread messages. */
  onMessageFromOthers?: () => void;
}

export interface ChatRoom extends ChatRoomState {
  /**
   * The room's socket, for features that speak their own frames over it (bot challenges, room
   * key agreement, voice signalling): subscribe with `socket.on(type, listener)` in an effect and
   * send with `socket.send(frame)`. It outlives room switches; it is closed when the page goes.
   */
  socket: ChatSocket;
  status: ChatConnectionStatus;
  /** The connection in detail: the next automatic try, the count of tries, a hold. */
  link: ChatLink;
  /** Connected and inside `room`: only then do messages leave at once. */
  isJoined: boolean;
  /**
   * Not inside `room` right now, but coming back to it by itself (the connection was lost and is
   * being tried again, or the join is under way): messages typed now are held until it is back.
   */
  isRejoining: boolean;
  /** The server refused `room` for want of an access code: the access terminal should show. */
  isAccessRequired: boolean;
  /** The server refused to let this connection into `room` for another reason. */
  isJoinRefused: boolean;
  /** The access terminal granted a token: store it and join again with it. */
  grantAccess: (accessToken: string) => void;
  /** Encrypts and sends; resolves false when nothing was sent. */
  sendMessage: (text: string, isStealthMode: boolean) => Promise<boolean>;
  /**
   * Encrypts and sends a whole payload (text and, for the image feature, an image reference whose
   * key travels only inside the ciphertext); resolves false when nothing was sent.
   */
  sendPayload: (payload: MessagePayload, isStealthMode: boolean) => Promise<boolean>;
  /** Messages held until they can be encrypted (or the user sends one in clear). */
  pending: readonly PendingSend[];
  /** The user confirmed that this one held message may leave as PLAINTEXT. */
  sendPendingInClear: (id: string) => void;
  /** Drops a held or NOT SENT message: nothing is sent. */
  cancelPending: (id: string) => void;
  /** Sends a NOT SENT message again, encrypted afresh. */
  resendFailed: (id: string) => void;
  sendTyping: (type: 'typing_start' | 'typing_stop') => void;
  /** A system line on this screen only (chat command answers). */
  addLocalLine: (text: string, level?: SystemLevel) => void;
  /** Shows lines of the /simulation drill on this screen only (labelled, 60 s). */
  addSimulationLines: (texts: readonly string[]) => void;
  reconnect: () => void;
  /** Any client frame on this connection (admin panel, bot check, screenshot alerts). */
  sendFrame: (frame: ClientFrame) => boolean;
  /** Parsed server frames of one type; returns the unsubscribe function. Stable. */
  onFrame: ChatSocket['on'];
}

/** A held message's controls, beside what the screen shows of it. */
interface PendingControl {
  consent: () => void;
  abort: AbortController;
}

function newLineId(): string {
  return `local-${crypto.randomUUID()}`;
}

export function useChatRoom({
  room,
  username,
  sessionToken,
  cipher,
  onMessageFromOthers,
}: UseChatRoomOptions): ChatRoom {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [socket] = useState(
    () =>
      new ChatSocket({
        beforeOpen: waitForServerTrust,
        url: chatSocketUrl(window.location),
        onServiceRedirect: (path) => {
          rememberReturnPath();
          navigateBrowser(path, { replace: true });
        },
      }),
  );
  const link = useSyncExternalStore(socket.onLinkChange, socket.getLink);
  const { status } = link;
  const [state, dispatch] = useReducer(chatRoomReducer, undefined, initialChatRoomState);
  const [refusal, setRefusal] = useState<{ roomId: string; isAccessCode: boolean } | null>(null);
  const [joinRequest, setJoinRequest] = useState(0);
  const [pending, setPending] = useState<readonly PendingSend[]>([]);
  const [pendingControls] = useState(() => new Map<string, PendingControl>());
  const [ledger] = useState(() => new OutgoingLedger());
  const [failedSends] = useState(() => new Map<string, InFlightSend>());
  const roomId = room?.id ?? null;

  // A held message belongs to the room it was typed in: switching rooms drops it unsent.
  useEffect(() => {
    return () => {
      for (const control of pendingControls.values()) control.abort.abort();
      pendingControls.clear();
      ledger.clear();
      failedSends.clear();
      setPending([]);
    };
  }, [roomId, pendingControls, ledger, failedSends]);

  // Removed from a room, or a room destroyed, holds the socket; another room lifts that hold.
  useEffect(() => {
    const { hold } = socket.getLink();
    if (hold === 'removed' || hold === 'destroyed') socket.release();
  }, [socket, roomId]);

  useEffect(() => {
    socket.start();
    return () => socket.stop();
  }, [socket]);

  // The client ticks every second; lines whose time is up leave the screen (spec 000 §4).
  useEffect(() => {
    const timer = window.setInterval(() => dispatch({ type: 'tick', now: Date.now() }), 1000);
    return () => window.clearInterval(timer);
  }, []);

  // Join whenever a connection opens, the room changes or a fresh access token arrives.
  useEffect(() => {
    if (status !== 'connected' || roomId === null) return;
    socket.send({
      type: 'join_room',
      roomId,
      username,
      sessionToken,
      accessToken: getRoomAccessToken(roomId),
    });
  }, [socket, status, roomId, username, sessionToken, joinRequest]);

  const decrypt = useEffectEvent((messages: readonly Message[]) => {
    for (const message of messages) {
      cipher
        .decrypt(message)
        .catch(() => ({ state: 'error' as const, text: encryptedMarker(message.encryptionType) }))
        .then((display) => dispatch({ type: 'decrypted', id: message.id, display }));
    }
  });

  const addSystemLine = useEffectEvent((text: string, level: SystemLevel) => {
    dispatch({ type: 'system', id: newLineId(), text, level, source: 'server', now: Date.now() });
    playSound('system');
  });

  /** Shows a message as NOT SENT, with why, and keeps what RESEND needs. */
  const markNotSent = useCallback(
    (send: InFlightSend, reason: string) => {
      failedSends.set(send.id, send);
      setPending((items) => [
        ...items.filter((item) => item.id !== send.id),
        {
          id: send.id,
          text: send.payload.text,
          hasImage: send.payload.image !== undefined,
          isConsented: false,
          failure: reason,
        },
      ]);
    },
    [failedSends],
  );

  const onNewMessage = useEffectEvent((message: Message) => {
    if (message.senderId === state.nodeId) {
      const { relayed, refused } = ledger.echoed(message);
      // Taken as refused, but relayed after all: it is sent; the refusal was another's.
      if (relayed !== null && failedSends.delete(relayed)) {
        setPending((items) => items.filter((item) => item.id !== relayed));
      }
      if (refused) markNotSent(refused.send, refused.reason);
    }
    dispatch({ type: 'new_message', message, now: Date.now() });
    decrypt([message]);
    if (message.roomId === roomId && message.senderId !== state.nodeId) {
      playSound('message');
      onMessageFromOthers?.();
    }
  });

  const onError = useEffectEvent((message: string, frameType: string | undefined) => {
    if (frameType === 'send_message') {
      const refused = ledger.refused(message);
      if (refused) {
        markNotSent(refused, message);
        return;
      }
    }
    if (frameType === 'join_room' && roomId) {
      const isAccessCode = message === TEXT.roomAccessCodeRequired;
      setRefusal({ roomId, isAccessCode });
      if (isAccessCode) return;
    }
    // The answer to a frame the removal overtook: the removal's notice stays on screen.
    if (isEchoOfRemoval(frameType, socket.getLink().hold)) return;
    toast({ title: 'CHANNEL ERROR', description: message, variant: 'destructive' });
  });

  const onRoomUpdated = useEffectEvent((updated: Room) => {
    queryClient.setQueryData(roomKeys.room(updated.secureId), updated);
    queryClient.setQueryData<Room[]>(roomKeys.all, (rooms) =>
      rooms?.map((item) => (item.id === updated.id ? updated : item)),
    );
  });

  // Kicked or banned (moderation): the server took this socket out of the room; stay out and say why.
  const onRemoved = useEffectEvent((removedRoomId: string, message: string) => {
    if (removedRoomId !== roomId) return;
    socket.hold('removed');
    dispatch({ type: 'disconnected' });
    setRefusal({ roomId: removedRoomId, isAccessCode: false });
    addSystemLine(message, 'critical');
    toast({ title: 'REMOVED FROM CHANNEL', description: message, variant: 'destructive' });
  });

  const onRoomDestroyed = useEffectEvent((destroyedId: string) => {
    void forgetKnownRoom(destroyedId);
    if (destroyedId === roomId) {
      socket.hold('destroyed');
      navigate('/channel-destroyed', { replace: true });
    }
    void queryClient.invalidateQueries({ queryKey: roomKeys.all });
  });

  // Back in the room after a lost connection: say so, and settle what was on its way.
  const onRejoined = useEffectEvent((frame: ServerFrameOf<'room_joined'>) => {
    for (const lost of ledger.settle(frame.messages)) {
      markNotSent(lost, 'The connection was lost before the relay confirmed it');
    }
    addSystemLine('RECONNECTED: the secure link is back and you rejoined the channel', 'info');
  });

  useEffect(() => {
    const now = () => Date.now();
    // A connection that had been inside a room was lost: the next room_joined is a return.
    let isInRoom = false;
    let isReturning = false;
    const offs = [
      socket.onStatusChange((next) => {
        if (next === 'connected') return;
        if (isInRoom) isReturning = true;
        isInRoom = false;
        dispatch({ type: 'disconnected' });
      }),
      socket.on('room_joined', (frame) => {
        // The server's grant for this room: the timer call and later joins present it.
        setRoomAccessToken(frame.roomId, frame.accessToken);
        dispatch({ type: 'room_joined', frame, now: now() });
        decrypt(frame.messages);
        if (isReturning) onRejoined(frame);
        isReturning = false;
        isInRoom = true;
      }),
      socket.on('new_message', (frame) => onNewMessage(frame.message)),
      socket.on('messages_expired', (frame) =>
        dispatch({ type: 'expired', messageIds: frame.messageIds, now: now() }),
      ),
      socket.on('message_deleted', (frame) =>
        dispatch({ type: 'remove', messageIds: [frame.messageId] }),
      ),
      socket.on('user_joined', (frame) => {
        dispatch({ type: 'presence', frame, id: newLineId(), now: now() });
        playSound('system');
      }),
      socket.on('users_joined', (frame) => {
        const ids = frame.users.map(() => newLineId());
        dispatch({ type: 'users_joined', frame, ids, now: now() });
        playSound('system');
      }),
      socket.on('user_left', (frame) => {
        dispatch({ type: 'presence', frame, id: newLineId(), now: now() });
        playSound('system');
      }),
      socket.on('user_list_update', (frame) =>
        dispatch({ type: 'user_list', roomId: frame.roomId, users: frame.users }),
      ),
      socket.on('typing_start', (frame) => dispatch({ type: 'typing', frame })),
      socket.on('typing_stop', (frame) => dispatch({ type: 'typing', frame })),
      socket.on('system_message', (frame) => addSystemLine(frame.message, frame.level)),
      socket.on('system_broadcast', (frame) => addSystemLine(frame.message, frame.level)),
      socket.on('admin_message', (frame) => addSystemLine(`ADMIN: ${frame.message}`, 'warning')),
      socket.on('security_alert', (frame) =>
        addSystemLine(`${frame.username}: ${frame.message}`, 'security'),
      ),
      socket.on('service_restored', (frame) => addSystemLine(frame.message, 'info')),
      socket.on('room_updated', (frame) => onRoomUpdated(frame.room)),
      socket.on('room_destroyed', (frame) => onRoomDestroyed(frame.roomId)),
      socket.on('removed_from_room', (frame) => onRemoved(frame.roomId, frame.message)),
      socket.on('error', (frame) => onError(frame.message, frame.frameType)),
      socket.on('admin_error', (frame) => onError(frame.message, undefined)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [socket]);

  const isJoined = status === 'connected' && roomId !== null && state.joinedRoomId === roomId;
  // Out of the room this tab was in, and on the way back by itself (no hold, no refusal).
  const isRejoining =
    !isJoined &&
    roomId !== null &&
    state.linesRoomId === roomId &&
    link.hold === null &&
    refusal?.roomId !== roomId &&
    (status === 'connecting' ||
      link.retryAt !== null ||
      (status === 'connected' && state.joinedRoomId === null));

  /** Sends one message; once it is on the socket, the ledger waits for its echo. */
  const transmit = (outgoing: EncryptedOutgoing, send: InFlightSend): boolean => {
    const { image } = send.payload;
    // The image's key, name and size travel only inside the encrypted payload; the frame names
    // just where its ciphertext is, so the server can tie it to the message's lifetime.
    const isSent = socket.send({
      type: 'send_message',
      ...outgoing,
      isStealthMode: send.isStealthMode,
      hasImage: image !== undefined,
      imageUrl: image?.url ?? null,
      thumbnailUrl: image?.hasThumbnail ? `${image.url}/thumbnail` : null,
    });
    if (isSent) ledger.sent(send, outgoing);
    return isSent;
  };

  const encryptionFailed = () =>
    toast({
      title: 'ENCRYPTION FAILED',
      description: 'The message was not sent.',
      variant: 'destructive',
    });

  const sendPayload = async (payload: MessagePayload, isStealthMode: boolean): Promise<boolean> => {
    if (!isJoined && !isRejoining) return false;
    const id = newLineId();
    const send: InFlightSend = { id, payload, isStealthMode };
    if (isJoined && cipher.canEncryptNow()) {
      try {
        return transmit(await cipher.encrypt(payload), send);
      } catch {
        // Nothing is sent, and the text stays in the input; never a reason to send in clear.
        encryptionFailed();
        return false;
      }
    }
    // The keys are not ready: hold the message, shown as pending, until they are — or until
    // the user confirms that this one message may leave in clear (issue 14). One typed while
    // the connection is down waits for the keys agreed after the return, and never offers clear.
    const isAwaitingLink = !isJoined;
    let consent: () => void = () => undefined;
    const plaintextConsent = new Promise<undefined>((resolve) => {
      consent = () => resolve(undefined);
    });
    const abort = new AbortController();
    pendingControls.set(id, { consent, abort });
    setPending((items) => [
      ...items,
      {
        id,
        text: payload.text,
        hasImage: payload.image !== undefined,
        isConsented: false,
        isAwaitingLink,
      },
    ]);
    const settle = () => {
      pendingControls.delete(id);
      setPending((items) => items.filter((item) => item.id !== id));
    };
    cipher
      .encrypt(payload, { plaintextConsent, signal: abort.signal })
      .then((outgoing) => {
        settle();
        if (!abort.signal.aborted && !transmit(outgoing, send)) {
          markNotSent(send, 'The connection was lost: not sent');
        }
      })
      .catch((error: unknown) => {
        settle();
        if (!(error instanceof SendCancelledError)) encryptionFailed();
      });
    return true;
  };

  const sendFrame = useCallback((frame: ClientFrame) => socket.send(frame), [socket]);
  const onFrame = useCallback<ChatSocket['on']>(
    (type, listener) => socket.on(type, listener),
    [socket],
  );

  const addLocalLine = useCallback(
    (text: string, level: SystemLevel = 'info') =>
      dispatch({ type: 'system', id: newLineId(), text, level, source: 'local', now: Date.now() }),
    [],
  );

  const addSimulationLines = useCallback((texts: readonly string[]) => {
    const at = Date.now();
    for (const text of texts)
      dispatch({
        type: 'system',
        id: newLineId(),
        text,
        level: 'info',
        source: 'local',
        now: at,
        isSimulated: true,
      });
  }, []);

  return {
    ...state,
    socket,
    // Lines of another room (during a switch) are not shown.
    lines: state.linesRoomId === roomId ? state.lines : [],
    status,
    link,
    isJoined,
    isRejoining,
    isAccessRequired: !isJoined && refusal?.roomId === roomId && refusal.isAccessCode,
    isJoinRefused: !isJoined && refusal?.roomId === roomId && !refusal.isAccessCode,
    grantAccess: (accessToken) => {
      if (roomId === null) return;
      setRoomAccessToken(roomId, accessToken);
      setRefusal(null);
      setJoinRequest((count) => count + 1);
    },
    sendMessage: (text, isStealthMode) => {
      const trimmed = text.trim();
      if (trimmed === '') return Promise.resolve(false);
      return sendPayload({ v: 1, text: trimmed }, isStealthMode);
    },
    sendPayload,
    pending,
    sendPendingInClear: (id) => {
      const control = pendingControls.get(id);
      if (!control) return;
      setPending((items) =>
        items.map((item) => (item.id === id ? { ...item, isConsented: true } : item)),
      );
      control.consent();
    },
    cancelPending: (id) => {
      pendingControls.get(id)?.abort.abort();
      ledger.forget(id);
      if (failedSends.delete(id)) setPending((items) => items.filter((item) => item.id !== id));
    },
    resendFailed: (id) => {
      const failed = failedSends.get(id);
      if (!failed) return;
      failedSends.delete(id);
      ledger.forget(id);
      setPending((items) => items.filter((item) => item.id !== id));
      void sendPayload(failed.payload, failed.isStealthMode).then((isSent) => {
        if (!isSent) markNotSent(failed, 'Not connected: not sent');
      });
    },
    sendTyping: (type) => {
      if (!isJoined || !socket.send({ type }) || state.nodeId === null) return;
      // The relay tells only the others; this tab's own row follows here, at once.
      dispatch({ type: 'typing', frame: { type, nodeId: state.nodeId, username } });
    },
    addLocalLine,
    addSimulationLines,
    reconnect: () => socket.reconnect(),
    sendFrame,
    onFrame,
  };
}

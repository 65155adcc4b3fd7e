/**
 * The live chat of one room (spec 000 §4 "Chat connection", §7): owns the ChatSocket, joins the
 * room once connected (and again after every reconnect or room switch), turns server frames into
 * ChatRoomState through the pure reducer, and performs the side effects the reducer must not:
 * decryption through the MessageCipher, sounds, toasts, navigation and room query updates.
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
import { chatRoomReducer, initialChatRoomState, type ChatRoomState } from './chat-room-state.js';
import { getRoomAccessToken, setRoomAccessToken } from '../../lib/rooms/room-access.js';
import { waitForServerTrust } from '../../lib/privacy/server-trust.js';

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
  /** Connected and inside `room`: only then can messages be sent. */
  isJoined: boolean;
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
  /** Drops a held message: nothing is sent. */
  cancelPending: (id: string) => void;
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
  const subscribeStatus = useCallback(
    (onChange: () => void) => socket.onStatusChange(onChange),
    [socket],
  );
  const status = useSyncExternalStore(subscribeStatus, () => socket.getStatus());
  const [state, dispatch] = useReducer(chatRoomReducer, 0, () => initialChatRoomState(Date.now()));
  const [refusal, setRefusal] = useState<{ roomId: string; isAccessCode: boolean } | null>(null);
  const [joinRequest, setJoinRequest] = useState(0);
  const [pending, setPending] = useState<readonly PendingSend[]>([]);
  const [pendingControls] = useState(() => new Map<string, PendingControl>());
  const roomId = room?.id ?? null;

  // A held message belongs to the room it was typed in: switching rooms drops it unsent.
  useEffect(() => {
    return () => {
      for (const control of pendingControls.values()) control.abort.abort();
      pendingControls.clear();
      setPending([]);
    };
  }, [roomId, pendingControls]);

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

  const onNewMessage = useEffectEvent((message: Message) => {
    dispatch({ type: 'new_message', message, now: Date.now() });
    decrypt([message]);
    if (message.roomId === roomId && message.senderId !== state.nodeId) {
      playSound('message');
      onMessageFromOthers?.();
    }
  });

  const onError = useEffectEvent((message: string, frameType: string | undefined) => {
    if (frameType === 'join_room' && roomId) {
      const isAccessCode = message === TEXT.roomAccessCodeRequired;
      setRefusal({ roomId, isAccessCode });
      if (isAccessCode) return;
    }
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
    dispatch({ type: 'disconnected' });
    setRefusal({ roomId: removedRoomId, isAccessCode: false });
    addSystemLine(message, 'critical');
    toast({ title: 'REMOVED FROM CHANNEL', description: message, variant: 'destructive' });
  });

  const onRoomDestroyed = useEffectEvent((destroyedId: string) => {
    if (destroyedId === roomId) navigate('/channel-destroyed', { replace: true });
    void queryClient.invalidateQueries({ queryKey: roomKeys.all });
  });

  useEffect(() => {
    const now = () => Date.now();
    const offs = [
      socket.onStatusChange((next) => {
        if (next !== 'connected') dispatch({ type: 'disconnected' });
      }),
      socket.on('room_joined', (frame) => {
        // The server's grant for this room: the timer call and later joins present it.
        setRoomAccessToken(frame.roomId, frame.accessToken);
        dispatch({ type: 'room_joined', frame, now: now() });
        decrypt(frame.messages);
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

  const transmit = (
    outgoing: EncryptedOutgoing,
    payload: MessagePayload,
    isStealthMode: boolean,
  ): boolean => {
    const { image } = payload;
    // The image's key, name and size travel only inside the encrypted payload; the frame names
    // just where its ciphertext is, so the server can tie it to the message's lifetime.
    return socket.send({
      type: 'send_message',
      ...outgoing,
      isStealthMode,
      hasImage: image !== undefined,
      imageUrl: image?.url ?? null,
      thumbnailUrl: image?.hasThumbnail ? `${image.url}/thumbnail` : null,
    });
  };

  const encryptionFailed = () =>
    toast({
      title: 'ENCRYPTION FAILED',
      description: 'The message was not sent.',
      variant: 'destructive',
    });

  const sendPayload = async (payload: MessagePayload, isStealthMode: boolean): Promise<boolean> => {
    if (!isJoined) return false;
    if (cipher.canEncryptNow()) {
      try {
        return transmit(await cipher.encrypt(payload), payload, isStealthMode);
      } catch {
        // Nothing is sent, and the text stays in the input; never a reason to send in clear.
        encryptionFailed();
        return false;
      }
    }
    // The keys are not ready: hold the message, shown as pending, until they are — or until
    // the user confirms that this one message may leave in clear (issue 14).
    const id = newLineId();
    let consent: () => void = () => undefined;
    const plaintextConsent = new Promise<undefined>((resolve) => {
      consent = () => resolve(undefined);
    });
    const abort = new AbortController();
    pendingControls.set(id, { consent, abort });
    setPending((items) => [
      ...items,
      { id, text: payload.text, hasImage: payload.image !== undefined, isConsented: false },
    ]);
    const settle = () => {
      pendingControls.delete(id);
      setPending((items) => items.filter((item) => item.id !== id));
    };
    cipher
      .encrypt(payload, { plaintextConsent, signal: abort.signal })
      .then((outgoing) => {
        settle();
        if (!abort.signal.aborted) transmit(outgoing, payload, isStealthMode);
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
    isJoined,
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
    cancelPending: (id) => pendingControls.get(id)?.abort.abort(),
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

/**
 * Wires the page's RoomKeyManager to the chat socket and the page: key-agreement frames in and
 * out, the room joined, members leaving, the key file (identity), the key registry, periodic
 * rotation, and the link checks (certificate pin, PFS exchange). Returns everything the security
 * indicators show. A failed certificate check aborts the connection (spec 000 §4).
 *
 * The manager arrives with the room's crypto after the first paint (LazyRoomCipher): this hook
 * starts loading it, listens to the socket from the start, and hands every frame to the manager
 * through the cipher's queue, so frames that arrive before it has loaded are processed in order
 * once it has. Until then the status is "loading" (`engine`).
 */
import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import { PFS_KEY_ROTATION_MS } from '../../../shared/constants.js';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import {
  linkPhase,
  type ChatSocket,
  type LinkPhase,
  type ServerFrameOf,
} from '../../lib/realtime/chat-socket.js';
import { accessCodeFor, isRoomLocked } from './access-codes.js';
import { isCertificateVouched, isPageOverTls } from '../../lib/privacy/pins.js';
import { type CryptoLogEntry } from './crypto-log.js';
import { KEY_MAINTENANCE_INTERVAL_MS } from './e2ee-constants.js';
import { type E2eeStatus } from './e2ee-status.js';
import { type CipherLoadState, type LazyRoomCipher } from './lazy-room-cipher.js';
import type { RoomKeyManager } from './room-key-manager.js';
import {
  authenticationLabel,
  securityLevelLabel,
  type AuthenticationLabel,
  type SecurityLevelLabel,
} from './security-level.js';
import {
  browserTransportDeps,
  TransportSecurity,
  type TransportSecurityState,
} from './transport-security.js';

export interface UseRoomE2eeOptions {
  cipher: LazyRoomCipher;
  socket: ChatSocket;
  room: Room | null;
  /** The key file of this tab's login (null for visitors, and after a reload unless remembered). */
  keyFile: KeyFile | null;
  /** A key holder's session token: lets this browser ask the key registry. */
  sessionToken: string | null;
}

export interface RoomE2ee {
  /** Whether the room's encryption code has loaded (it is fetched right after the first paint). */
  engine: CipherLoadState;
  status: E2eeStatus;
  transport: TransportSecurityState;
  log: readonly CryptoLogEntry[];
  level: SecurityLevelLabel;
  authentication: AuthenticationLabel;
  /** A key holder whose key file is not in memory: their bundle cannot be signed. */
  isKeyFileMissing: boolean;
  /** At least one member's bundle is forged or substituted. */
  hasKeySubstitution: boolean;
  /** The chat connection: while it is down no readout may say the room is encrypted live. */
  connection: LinkPhase;
  resetCertificates: () => void;
}

export function useRoomE2ee({
  cipher,
  socket,
  room,
  keyFile,
  sessionToken,
}: UseRoomE2eeOptions): RoomE2ee {
  const [transport] = useState(() => new TransportSecurity(browserTransportDeps(cipher.log)));

  useEffect(() => {
    void cipher.load();
  }, [cipher]);

  useEffect(() => {
    let isCurrent = true;
    cipher.withEngine(({ manager }) => {
      if (!isCurrent) return;
      void manager.initialize();
      manager.setTransport({
        announce: (bundle) => socket.send({ type: 'key_announce', bundle }),
        sendSenderKey: (targetNodeId, envelope) =>
          socket.send({ type: 'sender_key', targetNodeId, envelope }),
      });
    });
    return () => {
      isCurrent = false;
      cipher.withEngine(({ manager }) => manager.setTransport(null));
    };
  }, [cipher, socket]);

  const onJoined = useEffectEvent((frame: ServerFrameOf<'room_joined'>) => {
    if (!room || frame.roomId !== room.id) return;
    const join = {
      roomId: room.id,
      secureId: room.secureId,
      nodeId: frame.nodeId,
      accessCode: accessCodeFor(room.id),
      isLocked: isRoomLocked(room),
    };
    cipher.withEngine(({ manager }) => void manager.joinRoom(join));
  });
  const isThisRoom = useEffectEvent((roomId: string) => room?.id === roomId);

  useEffect(() => {
    // Each frame is handed over as it arrives (or queued, in order, until the manager is there).
    const toManager = (task: (manager: RoomKeyManager) => Promise<void>) =>
      cipher.withEngine(({ manager }) => void task(manager));
    const offs = [
      socket.on('room_joined', onJoined),
      socket.on('key_bundles', (frame) => toManager((m) => m.handleBundles(frame.bundles))),
      socket.on('key_announce', (frame) => {
        toManager((m) => m.handleAnnounce(frame.fromNodeId, frame.username, frame.bundle));
      }),
      socket.on('sender_key', (frame) => {
        toManager((m) => m.handleSenderKey(frame.fromNodeId, frame.envelope));
      }),
      socket.on('user_joined', (frame) => {
        const { user } = frame;
        if (isThisRoom(frame.roomId) && user) toManager((m) => m.handleMembersJoined([user]));
      }),
      socket.on('users_joined', (frame) => {
        if (isThisRoom(frame.roomId)) toManager((m) => m.handleMembersJoined(frame.users));
      }),
      socket.on('user_left', (frame) => {
        if (isThisRoom(frame.roomId)) toManager((m) => m.handleMemberLeft(frame.nodeId));
      }),
      socket.on('user_list_update', (frame) => {
        if (isThisRoom(frame.roomId)) toManager((m) => m.setRoster(frame.users));
      }),
      // A closed connection leaves the room on the server: wipe the room's keys at once.
      socket.onStatusChange((status) => {
        if (status !== 'connected') toManager((m) => m.leaveRoom());
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [socket, cipher]);

  useEffect(() => {
    cipher.withEngine((engine) => {
      void engine.manager.setIdentity(keyFile ? engine.signerFor(keyFile) : null);
    });
  }, [cipher, keyFile]);

  useEffect(() => {
    cipher.withEngine((engine) => {
      engine.manager.setRegistry(sessionToken ? engine.registryFor(sessionToken) : null);
    });
  }, [cipher, sessionToken]);

  useEffect(() => {
    const timer = window.setInterval(
      () => cipher.withEngine(({ manager }) => void manager.maintain()),
      KEY_MAINTENANCE_INTERVAL_MS,
    );
    return () => window.clearInterval(timer);
  }, [cipher]);

  useEffect(() => {
    let isCancelled = false;
    void transport.checkCertificate().then((status) => {
      if (!isCancelled && status === 'invalid') socket.stop();
    });
    void transport.exchangePfs();
    const timer = window.setInterval(() => void transport.exchangePfs(), PFS_KEY_ROTATION_MS);
    return () => {
      isCancelled = true;
      window.clearInterval(timer);
    };
  }, [transport, socket]);

  const engine = useSyncExternalStore(cipher.subscribe, cipher.getLoadState);
  const status = useSyncExternalStore(cipher.subscribe, cipher.getStatus);
  const transportState = useSyncExternalStore(transport.subscribe, transport.getState);
  const log = useSyncExternalStore(cipher.log.subscribe, cipher.log.getEntries);
  const link = useSyncExternalStore(socket.onLinkChange, socket.getLink);

  return {
    engine,
    status,
    transport: transportState,
    log,
    level: securityLevelLabel({
      isCertificateOk: isCertificateVouched(transportState.certificate, isPageOverTls()),
      hasZeroKnowledgeKey: status.zkFingerprint !== null,
      hasForwardSecrecyKey: transportState.pfs.status === 'active',
    }),
    authentication: authenticationLabel(sessionToken !== null),
    isKeyFileMissing: sessionToken !== null && keyFile === null,
    hasKeySubstitution: status.members.some((member) => member.trust === 'bad'),
    connection: linkPhase(link),
    resetCertificates: () => {
      void transport.resetCertificates().then((next) => {
        if (next !== 'invalid') socket.reconnect();
      });
    },
  };
}

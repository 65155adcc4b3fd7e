/**
 * Wires the page's RoomKeyManager to the chat socket and the page: key-agreement frames in and
 * out, the room joined, members leaving, the key file (identity), the key registry, periodic
 * rotation, and the link checks (certificate pin, PFS exchange). Returns everything the security
 * indicators show. A failed certificate check aborts the connection (spec 000 §4).
 */
import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import { PFS_KEY_ROTATION_MS } from '../../../shared/constants.js';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { type Room } from '../../../shared/protocol/http/rooms.js';
import { type ChatSocket, type ServerFrameOf } from '../../lib/realtime/chat-socket.js';
import { accessCodeFor, isRoomLocked } from './access-codes.js';
import { identitySignerFromKeyFile } from './bundle-identity.js';
import { isCertificateOk } from '../privacy/pins.js';
import { type CryptoLogEntry } from './crypto-log.js';
import { KEY_MAINTENANCE_INTERVAL_MS } from './e2ee-constants.js';
import { type E2eeMessageCipher } from './e2ee-message-cipher.js';
import { type E2eeStatus } from './e2ee-status.js';
import { httpIdentityRegistry } from './identity-trust.js';
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
  cipher: E2eeMessageCipher;
  socket: ChatSocket;
  room: Room | null;
  /** The key file of this tab's login (null for visitors, and for key holders after a reload). */
  keyFile: KeyFile | null;
  /** A key holder's session token: lets this browser ask the key registry. */
  sessionToken: string | null;
}

export interface RoomE2ee {
  status: E2eeStatus;
  transport: TransportSecurityState;
  log: readonly CryptoLogEntry[];
  level: SecurityLevelLabel;
  authentication: AuthenticationLabel;
  /** A key holder whose key file is not in memory: their bundle cannot be signed. */
  isKeyFileMissing: boolean;
  /** At least one member's bundle is forged or substituted. */
  hasKeySubstitution: boolean;
  resetCertificates: () => void;
}

export function useRoomE2ee({
  cipher,
  socket,
  room,
  keyFile,
  sessionToken,
}: UseRoomE2eeOptions): RoomE2ee {
  const { manager } = cipher;
  const [transport] = useState(() => new TransportSecurity(browserTransportDeps(manager.log)));

  useEffect(() => {
    void manager.initialize();
    manager.setTransport({
      announce: (bundle) => socket.send({ type: 'key_announce', bundle }),
      sendSenderKey: (targetNodeId, envelope) =>
        socket.send({ type: 'sender_key', targetNodeId, envelope }),
    });
    return () => manager.setTransport(null);
  }, [manager, socket]);

  const onJoined = useEffectEvent((frame: ServerFrameOf<'room_joined'>) => {
    if (!room || frame.roomId !== room.id) return;
    void manager.joinRoom({
      roomId: room.id,
      secureId: room.secureId,
      nodeId: frame.nodeId,
      accessCode: accessCodeFor(room.id),
      isLocked: isRoomLocked(room),
    });
  });
  const isThisRoom = useEffectEvent((roomId: string) => room?.id === roomId);

  useEffect(() => {
    const offs = [
      socket.on('room_joined', onJoined),
      socket.on('key_bundles', (frame) => void manager.handleBundles(frame.bundles)),
      socket.on('key_announce', (frame) => {
        void manager.handleAnnounce(frame.fromNodeId, frame.username, frame.bundle);
      }),
      socket.on('sender_key', (frame) => {
        void manager.handleSenderKey(frame.fromNodeId, frame.envelope);
      }),
      socket.on('user_joined', (frame) => {
        if (isThisRoom(frame.roomId) && frame.user) void manager.handleMemberJoined(frame.user);
      }),
      socket.on('user_left', (frame) => {
        if (isThisRoom(frame.roomId)) void manager.handleMemberLeft(frame.nodeId);
      }),
      socket.on('user_list_update', (frame) => {
        if (isThisRoom(frame.roomId)) void manager.setRoster(frame.users);
      }),
      // A closed connection leaves the room on the server: wipe the room's keys at once.
      socket.onStatusChange((status) => {
        if (status !== 'connected') void manager.leaveRoom();
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [socket, manager]);

  useEffect(() => {
    void manager.setIdentity(keyFile ? identitySignerFromKeyFile(keyFile) : null);
  }, [manager, keyFile]);

  useEffect(() => {
    manager.setRegistry(sessionToken ? httpIdentityRegistry(sessionToken) : null);
  }, [manager, sessionToken]);

  useEffect(() => {
    const timer = window.setInterval(() => void manager.maintain(), KEY_MAINTENANCE_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [manager]);

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

  const status = useSyncExternalStore(manager.subscribe, manager.getStatus);
  const transportState = useSyncExternalStore(transport.subscribe, transport.getState);
  const log = useSyncExternalStore(manager.log.subscribe, manager.log.getEntries);

  return {
    status,
    transport: transportState,
    log,
    level: securityLevelLabel({
      isCertificateOk: isCertificateOk(transportState.certificate),
      hasZeroKnowledgeKey: status.zkFingerprint !== null,
      hasForwardSecrecyKey: transportState.pfs.status === 'active',
    }),
    authentication: authenticationLabel(sessionToken !== null),
    isKeyFileMissing: sessionToken !== null && keyFile === null,
    hasKeySubstitution: status.members.some((member) => member.trust === 'bad'),
    resetCertificates: () => {
      void transport.resetCertificates().then((next) => {
        if (next !== 'invalid') socket.reconnect();
      });
    },
  };
}

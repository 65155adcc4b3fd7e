/**
 * The service-state pages' own small connection to `/chat-ws` (spec 001 §4 "Maintenance page",
 * §7): it waits for `service_restored`, then the page shows 'SERVICE RESTORED' and goes back to
 * `/` after 2 s with a full load, so the chat starts afresh. It reuses ChatSocket (frames parsed
 * with ServerFrameSchema, the spec's reconnect policy) without a service redirect, so the
 * `maintenance_mode` notice a new socket gets during a shutdown is ignored here.
 *
 * The same connection carries the maintenance console's `restore_service` frame, so it also
 * exposes `send` and `onFrame`.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  ChatSocket,
  chatSocketUrl,
  type ServerFrameOf,
  type ServerFrameType,
} from '../../lib/realtime/chat-socket.js';
import { type OnFrame, type SendFrame } from './admin-socket.js';
import { waitForServerTrust } from '../privacy/server-trust.js';

/** How long 'SERVICE RESTORED' shows before the page goes to `/` (spec 001 §4). */
export const SERVICE_RESTORED_RELOAD_MS = 2000;

export interface ServiceRestoredState {
  /** The server's restore message once `service_restored` arrived; null before. */
  restoredMessage: string | null;
  send: SendFrame;
  onFrame: OnFrame;
}

export function useServiceRestored(): ServiceRestoredState {
  const [socket] = useState(
    () =>
      new ChatSocket({
        beforeOpen: waitForServerTrust,
        url: chatSocketUrl(window.location),
      }),
  );
  const [restoredMessage, setRestoredMessage] = useState<string | null>(null);

  useEffect(() => {
    socket.start();
    const off = socket.on('service_restored', (frame) => setRestoredMessage(frame.message));
    return () => {
      off();
      socket.stop();
    };
  }, [socket]);

  useEffect(() => {
    if (restoredMessage === null) return;
    const timer = window.setTimeout(() => window.location.assign('/'), SERVICE_RESTORED_RELOAD_MS);
    return () => window.clearTimeout(timer);
  }, [restoredMessage]);

  const send = useCallback<SendFrame>((frame) => socket.send(frame), [socket]);
  const onFrame = useCallback<OnFrame>(
    <T extends ServerFrameType>(type: T, listener: (frame: ServerFrameOf<T>) => void) =>
      socket.on(type, listener),
    [socket],
  );
  return { restoredMessage, send, onFrame };
}

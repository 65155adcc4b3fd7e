/**
 * The direct-messages screen's socket to /chat-ws: the chat's ChatSocket (same reconnect policy,
 * same frame parsing), authenticated with `session_auth` each time a connection opens, so the
 * server can route dm_message_received, dm_thread_updated and dm_thread_deleted to this tab.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { navigate as navigateBrowser } from 'wouter/use-browser-location';
import { rememberReturnPath } from '../../lib/session/service-status.js';
import { ChatSocket, chatSocketUrl } from '../../lib/realtime/chat-socket.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { logDmError } from './dm-errors.js';
import { waitForServerTrust } from '../../lib/privacy/server-trust.js';

/** online: connected and authenticated, so notices arrive. */
export type DmLinkStatus = 'connecting' | 'online' | 'offline';

export interface DmSocket {
  link: DmLinkStatus;
  onFrame: OnFrame;
  send: SendFrame;
  reconnect: () => void;
}

export function useDmSocket(sessionToken: string): DmSocket {
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
  const [isAuthenticated, setIsAuthenticated] = useState(false);

  useEffect(() => {
    socket.start();
    return () => socket.stop();
  }, [socket]);

  useEffect(() => {
    const offs = [
      socket.onStatusChange((next) => {
        if (next !== 'connected') setIsAuthenticated(false);
      }),
      socket.on('session_authenticated', () => setIsAuthenticated(true)),
      socket.on('error', (frame) => {
        if (frame.frameType === 'session_auth') logDmError('Realtime session refused', null);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [socket]);

  // Every new connection is anonymous until it presents the session.
  useEffect(() => {
    if (status === 'connected') socket.send({ type: 'session_auth', sessionToken });
  }, [socket, status, sessionToken]);

  const onFrame = useMemo<OnFrame>(() => socket.on.bind(socket), [socket]);
  const send = useMemo<SendFrame>(() => socket.send.bind(socket), [socket]);
  const reconnect = useCallback(() => socket.reconnect(), [socket]);
  let link: DmLinkStatus = 'offline';
  if (status === 'connected') link = isAuthenticated ? 'online' : 'connecting';
  else if (status === 'connecting') link = 'connecting';
  return { link, onFrame, send, reconnect };
}

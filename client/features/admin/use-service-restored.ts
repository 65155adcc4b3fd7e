/**
 * How a notice page (spec 001 §2, §4) learns that the service is back, and returns the user by
 * itself to where they were:
 *
 * - its own small connection to `/chat-ws` waits for `service_restored` (ChatSocket: frames
 *   parsed with ServerFrameSchema, the spec's reconnect policy, no service redirect, so the
 *   `maintenance_mode` notice a new socket gets during a shutdown is ignored here);
 * - and, because that socket gives up after its reconnect tries (a server restart, a network
 *   cut), the service state is polled too (service-status.ts, every 3 s while down).
 *
 * Either way the page shows 'SERVICE RESTORED' and after 2 s loads the return path in full
 * (the page the user was on, or `/`), so the chat starts afresh. A page opened while the
 * service is operational (someone typed /maintenance-mode) stays: it returns only after it saw
 * the service down, or when it was reached from a page that went down.
 *
 * The same connection carries the maintenance console's `restore_service` frame, so it also
 * exposes `send` and `onFrame`.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { type PublicServiceStatus } from '../../../shared/protocol/http/admin.js';
import {
  ChatSocket,
  chatSocketUrl,
  type ServerFrameOf,
  type ServerFrameType,
} from '../../lib/realtime/chat-socket.js';
import {
  forgetReturnPath,
  serviceStatusKey,
  storedReturnPath,
  useServiceStatus,
} from '../../lib/session/service-status.js';
import { fetchPublicServiceStatus } from '../../lib/admin/admin-api.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { waitForServerTrust } from '../../lib/privacy/server-trust.js';

/** How long 'SERVICE RESTORED' shows before the page returns the user (spec 001 §4). */
export const SERVICE_RESTORED_RELOAD_MS = 2000;

/** What the page says when the poll, not the socket, saw the restore. */
export const RESTORED_BY_POLL_MESSAGE = 'Service restored. Secure channels are open again.';

export interface ServiceRestoredState {
  /** The restore message once the service is back; null before. */
  restoredMessage: string | null;
  /** Where the page goes after the restore. */
  destination: string;
  send: SendFrame;
  onFrame: OnFrame;
  /** Asks for the state now: returns the user at once when the service is back. */
  retry: () => Promise<PublicServiceStatus | null>;
}

/**
 * `returnTo`: the path to go back to; null means the path remembered when a page went down
 * (rememberReturnPath), else `/`.
 */
export function useServiceRestored(returnTo: string | null = null): ServiceRestoredState {
  const queryClient = useQueryClient();
  const [socket] = useState(
    () =>
      new ChatSocket({
        beforeOpen: waitForServerTrust,
        url: chatSocketUrl(window.location),
      }),
  );
  const [destination] = useState(() => returnTo ?? storedReturnPath() ?? '/');
  const [hasOrigin] = useState(() => returnTo !== null || storedReturnPath() !== null);
  const [socketMessage, setSocketMessage] = useState<string | null>(null);
  const status = useServiceStatus();
  const [sawDown, setSawDown] = useState(false);
  if (status?.status === 'emergency' && !sawDown) setSawDown(true);
  const isBackByPoll = status?.status === 'operational' && (sawDown || hasOrigin);
  const restoredMessage = socketMessage ?? (isBackByPoll ? RESTORED_BY_POLL_MESSAGE : null);

  useEffect(() => {
    socket.start();
    const off = socket.on('service_restored', (frame) => setSocketMessage(frame.message));
    return () => {
      off();
      socket.stop();
    };
  }, [socket]);

  const isRestored = restoredMessage !== null;
  useEffect(() => {
    if (!isRestored) return;
    const timer = window.setTimeout(() => {
      forgetReturnPath();
      window.location.assign(destination);
    }, SERVICE_RESTORED_RELOAD_MS);
    return () => window.clearTimeout(timer);
  }, [isRestored, destination]);

  const send = useCallback<SendFrame>((frame) => socket.send(frame), [socket]);
  const onFrame = useCallback<OnFrame>(
    <T extends ServerFrameType>(type: T, listener: (frame: ServerFrameOf<T>) => void) =>
      socket.on(type, listener),
    [socket],
  );
  const retry = useCallback(async () => {
    try {
      const answer = await queryClient.fetchQuery({
        queryKey: serviceStatusKey,
        queryFn: fetchPublicServiceStatus,
        staleTime: 0,
      });
      if (answer.status === 'operational') {
        forgetReturnPath();
        window.location.assign(destination);
      }
      return answer;
    } catch {
      return null;
    }
  }, [queryClient, destination]);
  return { restoredMessage, destination, send, onFrame, retry };
}

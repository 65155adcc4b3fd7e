/**
 * The public Tor status for every visitor (spec 000 §3 "Tor status", §7; issue 37 item 3): while
 * this server's onion service is up (tor connected, its onion address known) it shows the onion
 * address with a Copy control, so a visitor can move to the onion service. Polls the public
 * `GET /api/tor/status` every 5 s while mounted (spec 000 §7: the service polls every 5 s) and
 * renders nothing while the onion service is down. Never any admin control.
 */
import { useQuery } from '@tanstack/react-query';
import { TOR } from '../../../shared/constants.js';
import type { TorStatus } from '../../../shared/protocol/http/tor.js';
import { fetchTorStatus, torQueryKeys } from './tor-api.js';
import { useCopyOnion } from './use-copy-onion.js';

export interface TorVisitorStatusProps {
  /** `bar`: one line for the chat's status bar; `card`: a boxed block for the landing page. */
  variant: 'bar' | 'card';
}

/** True while the onion service can be used: tor is connected and the address is known. */
function isOnionServiceUp(status: TorStatus | undefined): status is TorStatus & {
  onionAddress: string;
} {
  return status !== undefined && status.connected && status.onionAddress !== null;
}

export function TorVisitorStatus({ variant }: TorVisitorStatusProps) {
  const copyOnion = useCopyOnion();
  const query = useQuery({
    queryKey: torQueryKeys.status(false),
    queryFn: () => fetchTorStatus(null),
    refetchInterval: TOR.servicePollMs,
    retry: false,
  });
  const status = query.data;
  if (!isOnionServiceUp(status)) return null;
  const address = status.onionAddress;
  const copy = (
    <button
      type="button"
      className="sc-btn min-h-6 px-1.5 py-0.5 text-xs"
      onClick={() => void copyOnion(address)}
      aria-label="Copy onion address"
      data-testid="tor-visitor-copy"
    >
      COPY
    </button>
  );
  if (variant === 'bar') {
    return (
      <span className="flex min-w-0 items-center gap-1.5" data-testid="tor-visitor-status">
        <span className="text-muted">ONION: </span>
        <code className="min-w-0 truncate text-primary" data-testid="tor-visitor-onion-address">
          {address}
        </code>
        {copy}
      </span>
    );
  }
  return (
    <section
      aria-label="Onion service"
      className="border border-primary/40 bg-surface/60 p-3 text-xs tracking-wider"
      data-testid="tor-visitor-status"
    >
      <p className="text-primary">
        <span aria-hidden="true">● </span>ONION SERVICE ONLINE
        <span className="text-muted">
          {' '}
          · {status.circuits} circuit{status.circuits === 1 ? '' : 's'}
          {status.hiddenServiceReachable ? ' · reachable' : ''}
        </span>
      </p>
      <p className="mt-1 text-muted">
        This server is also reachable over Tor. Open this address in Tor Browser:
      </p>
      <p className="mt-2 flex min-w-0 flex-wrap items-center gap-2">
        <code className="break-all text-fg" data-testid="tor-visitor-onion-address">
          {address}
        </code>
        {copy}
      </p>
    </section>
  );
}

/**
 * The Network Monitor (spec 000 §2): the nodes connected to this room (or to the whole relay
 * when no room is given), from `GET /api/connected-ips`. Despite the route's name it lists
 * nodes, never addresses: a node id is random for each connection. It also shows the latency to
 * this server, the round trip of `GET /api/ping` measured every 5 s while open (spec 000 §7).
 */
import { useQuery } from '@tanstack/react-query';
import { connectedNodeKeys, fetchConnectedNodes, serverErrorText } from './channel-api.js';
import { Bracketed, DIALOG_BUTTON, TerminalDialog } from '../../ui/TerminalDialog.js';
import { useLatency } from '../../lib/latency/use-latency.js';

export interface NetworkMonitorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The room whose nodes to list (id or secure id); null lists every connected node. */
  roomId: string | null;
}

/** "3m 12s ago"-style age of a connection. */
function connectedFor(connectionTime: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(connectionTime)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function NetworkMonitorDialog({ open, onOpenChange, roomId }: NetworkMonitorDialogProps) {
  const query = useQuery({
    queryKey: connectedNodeKeys.room(roomId),
    queryFn: () => fetchConnectedNodes(roomId),
    enabled: open,
    // Each opening is a fresh scan (the app's default is "never stale").
    staleTime: 0,
  });
  const latency = useLatency(open);
  const nodes = query.data?.ips ?? [];
  const fetchedAt = query.dataUpdatedAt;

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Network monitor"
      description={
        roomId
          ? 'Nodes connected to this channel right now.'
          : 'Nodes connected to this relay right now.'
      }
      windowLabel="root@securechannel:~/netmon"
      status={
        <span className={query.isError ? 'text-danger' : 'text-primary'}>
          {query.isFetching ? 'SCANNING' : query.isError ? 'OFFLINE' : 'LIVE'}
        </span>
      }
      widthClass="max-w-2xl"
      testId="network-monitor-dialog"
    >
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p
            className="text-xs tracking-[0.2em] text-muted uppercase"
            role="status"
            data-testid="network-monitor-count"
          >
            {query.isPending
              ? 'Scanning...'
              : `${nodes.length} node${nodes.length === 1 ? '' : 's'} connected`}
          </p>
          <p
            className="text-xs tracking-[0.2em] text-muted uppercase"
            data-testid="network-monitor-latency"
          >
            Latency{' '}
            <span className={latency.isError ? 'text-danger' : 'text-primary'}>
              {latency.isError
                ? 'NO ANSWER'
                : latency.latencyMs === null
                  ? 'MEASURING...'
                  : `${latency.latencyMs} ms`}
            </span>
          </p>
          <button
            type="button"
            className={DIALOG_BUTTON}
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
          >
            <Bracketed>{query.isFetching ? 'SCANNING...' : 'REFRESH'}</Bracketed>
          </button>
        </div>

        {query.isError ? (
          <p role="alert" className="border border-danger/60 bg-danger/10 p-2 text-xs text-danger">
            {serverErrorText(query.error) ?? 'NODE REGISTRY UNREACHABLE. Try refresh.'}
          </p>
        ) : null}

        <div className="overflow-x-auto border border-border">
          <table className="w-full min-w-[30rem] border-collapse text-left text-xs">
            <caption className="sr-only">Connected nodes</caption>
            <thead className="bg-background text-xs tracking-[0.2em] text-muted uppercase">
              <tr>
                <th scope="col" className="px-2 py-1.5 font-normal">
                  Node id
                </th>
                <th scope="col" className="px-2 py-1.5 font-normal">
                  Callsign
                </th>
                <th scope="col" className="px-2 py-1.5 font-normal">
                  Connected since
                </th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((node) => (
                <tr key={node.nodeId} className="border-t border-border/60">
                  <td className="px-2 py-1.5 break-all text-accent">{node.nodeId}</td>
                  <td className="px-2 py-1.5 break-all text-fg">{node.username}</td>
                  <td className="px-2 py-1.5 whitespace-nowrap text-muted">
                    <time dateTime={node.connectionTime}>
                      {new Date(node.connectionTime).toLocaleTimeString()}
                    </time>{' '}
                    ({connectedFor(node.connectionTime, fetchedAt)})
                  </td>
                </tr>
              ))}
              {!query.isPending && nodes.length === 0 ? (
                <tr>
                  <td colSpan={3} className="px-2 py-3 text-center text-muted">
                    NO NODES CONNECTED
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>

        <p className="text-xs leading-snug text-muted">
          Node ids are drawn at random for each connection and change when a member reconnects. The
          relay never sends network addresses to browsers: none are shown here.
        </p>
      </div>
    </TerminalDialog>
  );
}

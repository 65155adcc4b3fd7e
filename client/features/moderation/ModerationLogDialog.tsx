/**
 * The room's moderation log for its admins (issue 23): who did what to whom and when (30 days),
 * the room's moderators and the bans in force, with the admin's undo buttons (remove a moderator,
 * lift a ban). Read from `GET /api/rooms/{id}/moderation-log`; the undo buttons send frames.
 */
import { useQuery } from '@tanstack/react-query';
import { type ModerationLogEntry } from '../../../shared/protocol/http/moderation.js';
import { type ClientFrame } from '../../../shared/protocol/ws/index.js';
import { TerminalDialog } from '../../ui/TerminalDialog.js';
import { fetchModerationLog, moderationKeys } from './moderation-api.js';

export interface ModerationLogDialogProps {
  roomId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  send: (frame: ClientFrame) => boolean;
}

function describe(entry: ModerationLogEntry): string {
  const minutes = typeof entry.detail.minutes === 'number' ? ` ${entry.detail.minutes} min` : '';
  return `${entry.action.replaceAll('_', ' ').toUpperCase()}${minutes}`;
}

function time(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

export function ModerationLogDialog({
  roomId,
  open,
  onOpenChange,
  send,
}: ModerationLogDialogProps) {
  const log = useQuery({
    queryKey: moderationKeys.log(roomId),
    queryFn: () => fetchModerationLog(roomId),
    enabled: open,
    staleTime: 0,
  });
  const refresh = () => void log.refetch();
  const data = log.data;

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="MODERATION LOG"
      description="Who did what in this channel over the last 30 days, its moderators and the bans in force."
      windowLabel="root@securechannel:~/moderation"
      status={data?.isLocked ? 'LOCKED' : 'OPEN'}
      widthClass="max-w-2xl"
      testId="moderation-log"
    >
      <div className="space-y-4 font-mono text-xs">
        {log.isError ? (
          <p role="alert" className="text-danger">
            {log.error instanceof Error ? log.error.message : 'Could not load the log'}
          </p>
        ) : null}
        {log.isPending ? <p className="text-muted">LOADING...</p> : null}
        {data ? (
          <>
            <section aria-labelledby="moderation-moderators">
              <h3 id="moderation-moderators" className="mb-1 tracking-widest text-secondary">
                MODERATORS ({data.moderators.length})
              </h3>
              {data.moderators.length === 0 ? (
                <p className="text-muted">No moderators appointed.</p>
              ) : (
                <ul className="space-y-1">
                  {data.moderators.map((moderator) => (
                    <li key={moderator.keyId} className="flex items-center gap-2">
                      <span className="flex-1 text-fg">
                        {moderator.username}{' '}
                        <span className="text-muted">
                          since {time(moderator.since)} by {moderator.appointedBy}
                        </span>
                      </span>
                      <button
                        type="button"
                        className="border border-border px-2 py-0.5 text-muted hover:border-danger hover:text-danger"
                        onClick={() => {
                          send({ type: 'remove_moderator', keyId: moderator.keyId });
                          window.setTimeout(refresh, 500);
                        }}
                      >
                        REMOVE
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="moderation-bans">
              <h3 id="moderation-bans" className="mb-1 tracking-widest text-danger">
                BANS IN FORCE ({data.bans.length})
              </h3>
              {data.bans.length === 0 ? (
                <p className="text-muted">Nobody is banned.</p>
              ) : (
                <ul className="space-y-1">
                  {data.bans.map((ban) => (
                    <li key={ban.id} className="flex items-center gap-2">
                      <span className="flex-1 text-fg">
                        {ban.name}{' '}
                        <span className="text-muted">
                          {ban.isKeyHolder ? 'key holder' : 'anonymous (by address)'} ·{' '}
                          {ban.until ? `until ${time(ban.until)} UTC` : 'for good'}
                        </span>
                      </span>
                      <button
                        type="button"
                        className="border border-border px-2 py-0.5 text-muted hover:border-primary hover:text-primary"
                        onClick={() => {
                          send({ type: 'unban_member', banId: ban.id });
                          window.setTimeout(refresh, 500);
                        }}
                      >
                        LIFT
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="moderation-entries">
              <div className="mb-1 flex items-center">
                <h3 id="moderation-entries" className="flex-1 tracking-widest text-primary">
                  ACTIONS ({data.entries.length})
                </h3>
                <button
                  type="button"
                  onClick={refresh}
                  className="border border-border px-2 py-0.5 text-muted hover:border-primary hover:text-primary"
                >
                  REFRESH
                </button>
              </div>
              {data.entries.length === 0 ? (
                <p className="text-muted">No moderation in the last 30 days.</p>
              ) : (
                <table
                  className="w-full border-collapse text-left"
                  data-testid="moderation-entries"
                >
                  <thead className="text-muted">
                    <tr>
                      <th className="py-1 pr-2 font-normal">WHEN (UTC)</th>
                      <th className="py-1 pr-2 font-normal">WHO</th>
                      <th className="py-1 pr-2 font-normal">WHAT</th>
                      <th className="py-1 font-normal">WHOM</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.entries.map((entry) => (
                      <tr
                        key={entry.id}
                        className="border-t border-border/60"
                        data-testid="moderation-entry"
                      >
                        <td className="py-1 pr-2 whitespace-nowrap text-muted">{time(entry.at)}</td>
                        <td className="py-1 pr-2 text-fg">
                          {entry.actor} <span className="text-muted">({entry.actorRole})</span>
                        </td>
                        <td className="py-1 pr-2 text-accent">{describe(entry)}</td>
                        <td className="py-1 text-fg">{entry.target ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        ) : null}
      </div>
    </TerminalDialog>
  );
}

/**
 * The User Management tab. The spec's original said "coming soon"; here it is the live list of
 * connected users from the admin socket command `admin_list_users` (answered with `user_list`),
 * requested when the tab opens and on REFRESH. Room ids are shown with their names when the
 * room is listed (GET /api/rooms).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type z } from 'zod';
import { type UserListFrameSchema } from '../../../shared/protocol/ws/admin.js';
import { fetchRooms, roomKeys } from '../../lib/rooms/api.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { BADGE, BADGE_TONE, SECTION_TITLE } from '../../ui/admin-styles.js';
import { useNow } from '../../lib/use-now.js';
import { formatConnectedFor } from './user-list.js';
import { AdminAlert, AdminTableHead, RefreshButton } from './AdminTable.js';

type ConnectedUser = z.infer<typeof UserListFrameSchema>['users'][number];

export interface UserManagementTabProps {
  isActive: boolean;
  sessionToken: string;
  send: SendFrame;
  onFrame: OnFrame;
}

export function UserManagementTab({
  isActive,
  sessionToken,
  send,
  onFrame,
}: UserManagementTabProps) {
  const [list, setList] = useState<{ users: ConnectedUser[]; at: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const now = useNow(1000, isActive);
  const rooms = useQuery({ queryKey: roomKeys.all, queryFn: fetchRooms, enabled: isActive });
  const roomNames = new Map<string, string>();
  for (const room of rooms.data ?? []) {
    roomNames.set(room.id, room.name);
    roomNames.set(room.secureId, room.name);
  }

  // admin_error answers whichever admin command failed; only one after our request is ours.
  const isRequesting = useRef(false);

  useEffect(() => {
    const offs = [
      onFrame('user_list', (frame) => {
        isRequesting.current = false;
        setList({ users: frame.users, at: Date.now() });
        setProblem(null);
      }),
      onFrame('admin_error', (frame) => {
        if (!isRequesting.current) return;
        isRequesting.current = false;
        setProblem(frame.message);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [onFrame]);

  // Each time the tab opens, ask for a fresh list.
  useEffect(() => {
    if (isActive) isRequesting.current = send({ type: 'admin_list_users', sessionToken });
  }, [isActive, send, sessionToken]);

  const refresh = () => {
    setProblem(null);
    isRequesting.current = send({ type: 'admin_list_users', sessionToken });
    if (!isRequesting.current) {
      setProblem('Not connected to the relay: reconnect the chat and try again.');
    }
  };

  const users = [...(list?.users ?? [])].sort((a, b) => a.username.localeCompare(b.username));

  return (
    <section aria-labelledby="admin-users-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id="admin-users-heading" className={SECTION_TITLE}>
            Connected users
          </h3>
          <p
            className="mt-1 text-[0.75rem] text-muted"
            role="status"
            data-testid="admin-users-summary"
          >
            {list
              ? `${users.length} connected · updated ${new Date(list.at).toISOString().slice(11, 19)} UTC`
              : 'Requesting the user list...'}
          </p>
        </div>
        <RefreshButton isFetching={false} onRefresh={refresh} testId="admin-users-refresh" />
      </div>
      {problem ? <AdminAlert>{problem}</AdminAlert> : null}
      {list && users.length === 0 ? (
        <p className="py-6 text-center text-xs text-muted">No one is connected.</p>
      ) : null}
      {users.length > 0 ? (
        <div className="overflow-x-auto">
          <table
            className="w-full min-w-[36rem] border-collapse text-left text-xs"
            data-testid="admin-user-table"
          >
            <caption className="sr-only">Connected users</caption>
            <AdminTableHead columns={['Username', 'Channel', 'Role', 'Identity', 'Connected']} />
            <tbody>
              {users.map((user) => (
                <tr
                  key={user.nodeId}
                  className="border-b border-border/50"
                  data-testid="admin-user-row"
                >
                  <td className="max-w-[12rem] py-2 pr-3 break-words text-fg">{user.username}</td>
                  <td className="max-w-[14rem] py-2 pr-3 break-words text-fg" title={user.roomId}>
                    {roomNames.has(user.roomId)
                      ? `#${roomNames.get(user.roomId)}`
                      : `${user.roomId.slice(0, 10)}…`}
                  </td>
                  <td className="py-2 pr-3">
                    <span
                      className={`${BADGE} ${user.role === 'admin' ? BADGE_TONE.danger : user.role === 'moderator' ? BADGE_TONE.accent : BADGE_TONE.muted}`}
                    >
                      {user.role}
                    </span>
                  </td>
                  <td className="py-2 pr-3">
                    <span
                      className={`${BADGE} ${user.isAuthenticated ? BADGE_TONE.primary : BADGE_TONE.muted}`}
                    >
                      {user.isAuthenticated ? 'Key' : 'Anonymous'}
                    </span>
                  </td>
                  <td className="py-2 whitespace-nowrap text-muted">
                    {formatConnectedFor(user.connectionTime, now)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

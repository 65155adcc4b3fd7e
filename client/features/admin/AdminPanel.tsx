/**
 * The admin panel (spec 001 §2 "Admin panel", §6): a large terminal dialog opened by the /admin
 * chat command for key holders whose level is admin. Tabs: Key Management, Tor Network, User
 * Management, Console and Audit Log, plus the EMERGENCY PANEL button.
 *
 * Prop contract (the chat screen owns the one socket and the session; this panel owns nothing
 * long-lived and can be rendered in a test with fakes):
 *
 * - `open` / `onOpenChange`: a controlled Radix dialog; closing unmounts every tab's state.
 * - `sessionToken`: the admin key holder's bearer session token. HTTP calls send it through
 *   `apiRequest` (which reads the same stored token); socket commands carry it as
 *   `sessionToken`. An admin key is enough for the Keys, Tor, Users and Audit tabs; the Console
 *   and the emergency panel need console authentication on top (the admin password, a
 *   ten-minute admin session shared by both).
 * - `currentKeyId`: the admin's own key id, so revoking it is flagged.
 * - `send(frame)`: sends a client frame on the chat socket; false when it is not open.
 * - `onFrame(type, listener)`: subscribes to parsed server frames of one type and returns the
 *   unsubscribe function (`ChatSocket.on`). It must be stable between renders.
 *
 * Frames used: sent admin_broadcast, system_message, security_broadcast, admin_list_users,
 * emergency_shutdown, restore_service; received user_list, admin_error, admin_message,
 * system_broadcast, emergency_shutdown_notice, service_restored.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Bracketed, TerminalDialog } from '../../ui/TerminalDialog.js';
import { adminQueryKeys } from './admin-queries.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { DANGER_BUTTON } from '../../ui/admin-styles.js';
import { AdminTabList, AdminTabPanel, type AdminTab } from './AdminTabs.js';
import { AuditLogTab } from './AuditLogTab.js';
import { ConsoleTab } from './ConsoleTab.js';
import { EmergencyAdminPanel } from './EmergencyAdminPanel.js';
import { KeyManagementTab } from './KeyManagementTab.js';
import { TorNetworkTab } from './TorNetworkTab.js';
import { UserManagementTab } from './UserManagementTab.js';

export type AdminTabId = 'keys' | 'tor' | 'users' | 'console' | 'audit';

export const ADMIN_TABS: readonly AdminTab<AdminTabId>[] = [
  { id: 'keys', label: 'Key Management' },
  { id: 'tor', label: 'Tor Network' },
  { id: 'users', label: 'User Management' },
  { id: 'console', label: 'Console' },
  { id: 'audit', label: 'Audit Log' },
];

export interface AdminPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sessionToken: string;
  currentKeyId: string | null;
  send: SendFrame;
  onFrame: OnFrame;
}

const TAB_PREFIX = 'admin';

export function AdminPanel({
  open,
  onOpenChange,
  sessionToken,
  currentKeyId,
  send,
  onFrame,
}: AdminPanelProps) {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<AdminTabId>('keys');
  const [isEmergencyOpen, setEmergencyOpen] = useState(false);
  const refreshData = () => {
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.keys });
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.audit });
  };

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Admin panel"
      description="Keys, Tor, connected users, the admin console and the audit log. Every action is audited."
      windowLabel="root@securechannel:~/admin"
      status={<span className="text-danger">ADMIN</span>}
      widthClass="max-w-5xl"
      testId="admin-panel"
    >
      <div className="space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2 pb-2">
          <p className="text-[0.75rem] tracking-[0.15em] text-muted uppercase">
            Clearance: <span className="text-danger">Administrator</span> · Key session
          </p>
          <button
            type="button"
            className={DANGER_BUTTON}
            onClick={() => setEmergencyOpen(true)}
            data-testid="open-emergency-panel"
          >
            <Bracketed>EMERGENCY PANEL</Bracketed>
          </button>
        </div>
        <AdminTabList
          tabs={ADMIN_TABS}
          active={tab}
          onChange={setTab}
          idPrefix={TAB_PREFIX}
          label="Admin sections"
        />
        <AdminTabPanel idPrefix={TAB_PREFIX} id="keys" isActive={tab === 'keys'}>
          <KeyManagementTab isActive={open && tab === 'keys'} currentKeyId={currentKeyId} />
        </AdminTabPanel>
        <AdminTabPanel idPrefix={TAB_PREFIX} id="tor" isActive={tab === 'tor'}>
          <TorNetworkTab isActive={open && tab === 'tor'} />
        </AdminTabPanel>
        <AdminTabPanel idPrefix={TAB_PREFIX} id="users" isActive={tab === 'users'}>
          <UserManagementTab
            isActive={open && tab === 'users'}
            sessionToken={sessionToken}
            send={send}
            onFrame={onFrame}
          />
        </AdminTabPanel>
        <AdminTabPanel idPrefix={TAB_PREFIX} id="console" isActive={tab === 'console'}>
          <ConsoleTab send={send} onFrame={onFrame} onDataChanged={refreshData} />
        </AdminTabPanel>
        <AdminTabPanel idPrefix={TAB_PREFIX} id="audit" isActive={tab === 'audit'}>
          <AuditLogTab isActive={open && tab === 'audit'} />
        </AdminTabPanel>
      </div>
      {/* Nested inside the panel's content so Radix stacks it above and returns focus here. */}
      <EmergencyAdminPanel open={isEmergencyOpen} onOpenChange={setEmergencyOpen} />
    </TerminalDialog>
  );
}

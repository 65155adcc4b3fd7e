/**
 * What happens when an admin types /admin (spec 000 §2 "Chat commands", spec 001 §2 "Admin
 * panel"): the admin panel opens. The panel itself is rendered by the admin feature's
 * ChatAdminTools; non-admins never get here (chat-commands.ts answers them access denied).
 */
import { useCallback, useState } from 'react';

export interface AdminCommand {
  isAdminPanelOpen: boolean;
  setAdminPanelOpen: (open: boolean) => void;
  /** The /admin command's action. */
  onAdminCommand: () => void;
}

export function useAdminCommand(): AdminCommand {
  const [isAdminPanelOpen, setAdminPanelOpen] = useState(false);
  const onAdminCommand = useCallback(() => setAdminPanelOpen(true), []);
  return { isAdminPanelOpen, setAdminPanelOpen, onAdminCommand };
}

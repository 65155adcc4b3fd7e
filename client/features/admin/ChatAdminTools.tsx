/**
 * What the admin and abuse-control features add to the chat screen, in one element so the chat
 * page needs only a few lines: the admin panel (opened by /admin, for admin key holders only),
 * the bot-check dialog, and the screenshot-attempt guard. The chat page owns the socket and
 * passes its `send` and `onFrame` (see AdminPanel.tsx); it also owns the bot challenge's state
 * (useBotChallenge), because a pending challenge changes what the page shows.
 */
import { AdminPanel } from './AdminPanel.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { BotChallengeDialog } from './BotChallengeDialog.js';
import { type BotChallengeControls } from './use-bot-challenge.js';
import { useScreenshotGuard } from './use-screenshot-guard.js';

export interface ChatAdminToolsProps {
  /** The admin key holder's session; null when this visitor is not an admin. */
  admin: { sessionToken: string; keyId: string } | null;
  isAdminPanelOpen: boolean;
  onAdminPanelOpenChange: (open: boolean) => void;
  /** Joined to a room: screenshot alerts only mean something there. */
  isJoined: boolean;
  send: SendFrame;
  onFrame: OnFrame;
  botChallenge: BotChallengeControls;
}

export function ChatAdminTools({
  admin,
  isAdminPanelOpen,
  onAdminPanelOpenChange,
  isJoined,
  send,
  onFrame,
  botChallenge,
}: ChatAdminToolsProps) {
  useScreenshotGuard(send, isJoined);
  return (
    <>
      {admin ? (
        <AdminPanel
          open={isAdminPanelOpen}
          onOpenChange={onAdminPanelOpenChange}
          sessionToken={admin.sessionToken}
          currentKeyId={admin.keyId}
          send={send}
          onFrame={onFrame}
        />
      ) : null}
      <BotChallengeDialog {...botChallenge} />
    </>
  );
}

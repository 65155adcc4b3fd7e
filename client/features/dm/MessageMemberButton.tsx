/**
 * "message" on a member of the operatives list (spec 001 §3 `dm_target_user`): a key holder hands
 * the member's secure id to /direct-messages, which opens NEW CONVERSATION with it filled in.
 * Anonymous members have no key and so no secure id: the button says so instead of opening a
 * dialog that could never send.
 */
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';
import { STORAGE_KEYS, writeStorage } from '../../lib/storage-keys.js';

/** Why a direct message to this member is impossible; shown as a line in the chat. */
export function anonymousMemberText(username: string): string {
  return `${username} is anonymous and has no secure ID: direct messages need a registered key on both sides.`;
}

export interface MessageMemberButtonProps {
  member: Pick<RoomUser, 'username' | 'secureId'>;
  /** Opens /direct-messages (after dm_target_user is written). */
  onOpenDirectMessages: () => void;
  /** Shows a line in the chat (used to explain why an anonymous member cannot be written to). */
  onNotice: (text: string) => void;
}

export function MessageMemberButton({
  member,
  onOpenDirectMessages,
  onNotice,
}: MessageMemberButtonProps) {
  const { secureId } = member;
  const start = () => {
    if (secureId === null) {
      onNotice(anonymousMemberText(member.username));
      return;
    }
    writeStorage(STORAGE_KEYS.dmTargetUser, secureId);
    onOpenDirectMessages();
  };
  return (
    <button
      type="button"
      onClick={start}
      aria-label={`Message ${member.username}`}
      title={
        secureId === null ? 'Anonymous: no secure ID to write to' : `Direct message to ${secureId}`
      }
      data-testid="member-message"
      className={`shrink-0 rounded border px-1.5 text-xs leading-4 tracking-wider focus-visible:outline-none ${
        secureId === null
          ? 'border-border/60 text-muted/70 hover:text-muted'
          : 'border-border text-muted hover:border-primary hover:text-primary focus-visible:border-primary focus-visible:text-primary'
      }`}
    >
      MSG
    </button>
  );
}

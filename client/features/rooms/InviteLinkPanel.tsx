/**
 * The collapsible invite-link panel of private rooms: the link, a copy button and a warning (spec
 * 000 §2 has it for top-secret rooms; issue 33 gives it to every private room's creator and
 * members). The link's `auth` parameter names the room and a time only; the access code travels
 * separately, or, if the inviter ticks the box, in the link's fragment, which never reaches the
 * server (see invite-link.ts).
 */
import { useId, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type Room } from '../../../shared/protocol/http/rooms.js';
import { roomLabel } from '../../../shared/protocol/room-label.js';
import { toast } from '../../ui/use-toast.js';
import { buildInviteLink } from './invite-link.js';
import { Bracketed } from '../../ui/TerminalDialog.js';

export interface InviteLinkPanelProps {
  room: Room;
  /** The access code typed in this tab for the room (creation or access terminal), or null. */
  accessCode: string | null;
}

export function InviteLinkPanel({ room, accessCode }: InviteLinkPanelProps) {
  const ids = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [isCodeInLink, setCodeInLink] = useState(false);
  // Made once per mount: the timestamp says when this link was generated.
  const [madeAt] = useState(() => Date.now());
  const withCode = isCodeInLink && accessCode !== null;
  const link = buildInviteLink(window.location.origin, room, madeAt, withCode ? accessCode : null);
  const isTopSecret = room.securityLevel === 'top_secret';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast({ title: TEXT.copied, description: 'Invite link copied to clipboard.' });
    } catch {
      toast({
        title: TEXT.copyFailed,
        description: 'Select the link and copy it by hand.',
        variant: 'destructive',
      });
    }
  };

  return (
    <section
      aria-label="Invite link"
      className={`border-b font-mono ${isTopSecret ? 'border-danger/50 bg-danger/5' : 'border-border bg-surface/60'}`}
      data-testid="invite-link-panel"
    >
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={`${ids}-body`}
        onClick={() => setIsOpen((open) => !open)}
        data-testid="invite-link-toggle"
        className={`flex w-full items-center gap-2 px-3 py-1.5 text-left text-xs font-bold tracking-[0.2em] uppercase ${isTopSecret ? 'text-danger hover:bg-danger/10' : 'text-primary hover:bg-primary/10'}`}
      >
        <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
        {isTopSecret ? (
          <span className="sc-classified px-1 py-0 text-xs">Top secret</span>
        ) : (
          <span className="border border-border px-1 text-muted">{roomLabel(room)}</span>
        )}
        <span>Invite link</span>
      </button>
      {isOpen ? (
        <div id={`${ids}-body`} className="space-y-2 px-3 pb-3">
          <label
            htmlFor={`${ids}-link`}
            className="block text-xs tracking-[0.2em] text-muted uppercase"
          >
            Secure invite link
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id={`${ids}-link`}
              readOnly
              value={link}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 border border-border bg-background px-2 py-1.5 text-xs text-fg"
              data-testid="invite-link"
            />
            <button
              type="button"
              className="sc-btn px-3 py-1.5 text-xs"
              onClick={() => void copy()}
              data-testid="invite-link-copy"
            >
              <Bracketed>COPY</Bracketed>
            </button>
          </div>
          {accessCode !== null ? (
            <label className="flex items-start gap-2 text-xs text-fg">
              <input
                type="checkbox"
                checked={isCodeInLink}
                onChange={(event) => setCodeInLink(event.currentTarget.checked)}
                className="mt-0.5"
                data-testid="invite-link-code-toggle"
              />
              <span>
                Put the access code in the link (after <code>#code=</code>: it is never sent to the
                server, and the invitee enters without typing it)
              </span>
            </label>
          ) : null}
          <p className="text-xs leading-snug text-warning" role="note">
            <span aria-hidden="true">[!] </span>
            {withCode
              ? 'This link opens the channel by itself: anyone who gets it can enter. Share it only over a channel you trust.'
              : "Share only over a channel you trust. The link reveals the channel's name and location but not its access code: send the code separately. Anyone with both can enter."}
          </p>
        </div>
      ) : null}
    </section>
  );
}

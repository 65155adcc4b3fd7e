/**
 * The collapsible invite-link panel of top-secret rooms (spec 000 §2): the link, a copy button
 * and a warning. The link's `auth` parameter names the room and a time only; it grants nothing
 * and the access code is still required (see invite-link.ts).
 */
import { useId, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type Room } from '../../../shared/protocol/http/rooms.js';
import { toast } from '../../ui/use-toast.js';
import { buildInviteLink } from './invite-link.js';
import { Bracketed } from '../../ui/TerminalDialog.js';

export interface InviteLinkPanelProps {
  room: Room;
}

export function InviteLinkPanel({ room }: InviteLinkPanelProps) {
  const ids = useId();
  const [isOpen, setIsOpen] = useState(false);
  // Made once per mount: the timestamp says when this link was generated.
  const [link] = useState(() => buildInviteLink(window.location.origin, room, Date.now()));

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
      aria-label="Top secret invite link"
      className="border-b border-danger/50 bg-danger/5 font-mono"
      data-testid="invite-link-panel"
    >
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={`${ids}-body`}
        onClick={() => setIsOpen((open) => !open)}
        className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-[0.7rem] font-bold tracking-[0.2em] text-danger uppercase hover:bg-danger/10"
      >
        <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
        <span className="sc-classified px-1 py-0 text-[0.6rem]">Top secret</span>
        <span>Invite link</span>
      </button>
      {isOpen ? (
        <div id={`${ids}-body`} className="space-y-2 px-3 pb-3">
          <label
            htmlFor={`${ids}-link`}
            className="block text-[0.65rem] tracking-[0.2em] text-muted uppercase"
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
            />
            <button
              type="button"
              className="sc-btn px-3 py-1.5 text-xs"
              onClick={() => void copy()}
            >
              <Bracketed>COPY</Bracketed>
            </button>
          </div>
          <p className="text-[0.7rem] leading-snug text-warning" role="note">
            <span aria-hidden="true">[!] </span>Share only over a channel you trust. The link
            reveals the channel&apos;s name and location but not its access code: send the code
            separately. Anyone with both can enter.
          </p>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The control row under the header (spec 000 §2): CHANNELS, OPERATIVES, CREATE, AUDIO and, once
 * a room is loaded and the viewer may set its timer, TIMER; on narrow screens a channel selector
 * takes the channel list's place.
 */
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { ChannelSelect } from './ChannelSelect.js';

export interface ChatControlsProps {
  room: Room | null;
  isChannelListOpen: boolean;
  onToggleChannelList: () => void;
  isOperativesOpen: boolean;
  onToggleOperatives: () => void;
  onCreate: () => void;
  onAudio: () => void;
  /** Null when the viewer may not set this room's timer: the button is not offered. */
  onTimer: (() => void) | null;
}

/** Without a display value, so a caller can add `hidden md:inline-flex`. */
const CONTROL_BASE =
  'min-h-8 items-center border border-border px-2 py-1 text-xs tracking-widest text-primary hover:bg-primary/10 aria-pressed:bg-primary/20';
const CONTROL = `inline-flex ${CONTROL_BASE}`;

export function ChatControls(props: ChatControlsProps) {
  return (
    <div
      role="toolbar"
      aria-label="Channel controls"
      className="flex flex-wrap items-center gap-2 border-b border-border px-3 py-1.5"
    >
      <button
        type="button"
        className={`hidden md:inline-flex ${CONTROL_BASE}`}
        aria-pressed={props.isChannelListOpen}
        onClick={props.onToggleChannelList}
        data-testid="toggle-channels"
      >
        CHANNELS
      </button>
      <button
        type="button"
        className={CONTROL}
        aria-pressed={props.isOperativesOpen}
        onClick={props.onToggleOperatives}
        data-testid="toggle-operatives"
      >
        OPERATIVES
      </button>
      <button
        type="button"
        className={CONTROL}
        onClick={props.onCreate}
        data-testid="create-channel-button"
      >
        CREATE
      </button>
      <button type="button" className={CONTROL} onClick={props.onAudio} data-testid="audio-button">
        AUDIO
      </button>
      {props.room && props.onTimer ? (
        <button
          type="button"
          className={CONTROL}
          onClick={props.onTimer}
          data-testid="timer-button"
        >
          TIMER
        </button>
      ) : null}
      <ChannelSelect room={props.room} />
    </div>
  );
}

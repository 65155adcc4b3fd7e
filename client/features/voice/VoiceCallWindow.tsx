/**
 * The floating voice call window (spec 000 §2, §4 "Voice call"): 448 px wide, dragged by its
 * title bar, minimised to that bar. Shows the connection, the call's duration (mm:ss), the
 * participants (first 3 plus a count; who speaks is lit and listed first), the quality tier with
 * its parameters as requested and as the browser uses them, the audio buffer, the frame encryption with its
 * key-rotation counter and toggle; mute, deafen and leave; which peers send without frame
 * encryption by their own signed word, whose frames are refused (muted), and the encryption
 * statements that were ignored. Presentational: state in, intent out.
 */
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { formatCallDuration, participantSummary, speakersFirst } from './call-format.js';
import { VOICE_WINDOW_WIDTH_PX } from './voice-constants.js';
import { type VoiceCallState } from './voice-call.js';

export interface VoiceCallWindowProps {
  state: VoiceCallState;
  selfNodeId: string;
  now: number;
  isDisguised: boolean;
  onToggleMute: () => void;
  onToggleDeafen: () => void;
  onToggleEncryption: () => void;
  onClose: () => void;
}

const CONNECTION_TEXT = {
  connecting: { text: 'CONNECTING...', tone: 'text-warning' },
  connected: { text: 'CONNECTED', tone: 'text-primary' },
  disconnected: { text: 'DISCONNECTED', tone: 'text-danger' },
} as const;

const ENCRYPTION_TEXT = {
  initializing: { text: 'E2E FRAME KEYS: INITIALIZING', tone: 'text-warning' },
  active: { text: 'E2E FRAME ENCRYPTION: ACTIVE', tone: 'text-primary' },
  off: { text: 'E2E FRAME ENCRYPTION: OFF (DTLS-SRTP ONLY)', tone: 'text-warning' },
  unsupported: { text: 'E2E FRAME ENCRYPTION: UNAVAILABLE', tone: 'text-danger' },
} as const;

const QUALITY_TONE = {
  excellent: 'text-primary',
  good: 'text-primary',
  fair: 'text-warning',
  poor: 'text-danger',
} as const;

const BUTTON = 'sc-btn px-2 py-1 text-xs aria-pressed:bg-primary/20';

function useDrag() {
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const start = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);
  const onPointerDown = (event: ReactPointerEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('button')) return;
    start.current = { x: event.clientX, y: event.clientY, ox: offset.x, oy: offset.y };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLElement>) => {
    const origin = start.current;
    if (!origin) return;
    setOffset({ x: origin.ox + event.clientX - origin.x, y: origin.oy + event.clientY - origin.y });
  };
  const onPointerUp = () => {
    start.current = null;
  };
  return { offset, handlers: { onPointerDown, onPointerMove, onPointerUp } };
}

export function VoiceCallWindow(props: VoiceCallWindowProps) {
  const { state, now } = props;
  const [isMinimized, setMinimized] = useState(false);
  const { offset, handlers } = useDrag();
  const duration = formatCallDuration(state.joinedAt === null ? 0 : now - state.joinedAt);
  const { shown, more } = participantSummary(speakersFirst(state.participants, state.speaking));
  const connection = CONNECTION_TEXT[state.connection];
  const encryption = ENCRYPTION_TEXT[state.encryption];
  return (
    <section
      role="dialog"
      aria-label="Voice call"
      data-testid="voice-call-window"
      data-connection={state.connection}
      data-encryption={state.encryption}
      data-rotations={state.rotations}
      data-frames-sealed={state.counters.sealed}
      data-frames-received={state.counters.received}
      data-frames-opened={state.counters.opened}
      data-frames-clear={state.counters.receivedClear}
      data-transforms={state.counters.transforms}
      data-frames-no-key={state.counters.noKey}
      data-frames-failed={state.counters.failed}
      data-frames-held={state.counters.held}
      data-frames-empty={state.counters.empty}
      data-bytes-received={state.bytesReceived}
      data-bytes-sent={state.bytesSent}
      data-quality={state.quality ?? ''}
      style={{
        width: `min(${VOICE_WINDOW_WIDTH_PX}px, calc(100vw - 16px))`,
        maxHeight: 'calc(100dvh - 4rem - 8px)',
        transform: `translate(${offset.x}px, ${offset.y}px)`,
      }}
      // Under the page header, clear of the composer and its SEND button at the bottom.
      className="fixed top-16 right-2 z-40 flex flex-col border border-primary/60 bg-surface font-mono text-fg shadow-[0_0_48px_-18px_var(--sc-primary)]"
    >
      <header
        {...handlers}
        className="flex cursor-move touch-none items-center justify-between gap-2 border-b border-border px-3 py-1.5 text-xs tracking-[0.2em] uppercase select-none"
      >
        <span className="flex min-w-0 items-center gap-2">
          <span
            aria-hidden="true"
            className={`size-2 shrink-0 rounded-full bg-current ${connection.tone}`}
          />
          <span className="truncate text-primary">SECURE VOICE</span>
          <span className={connection.tone} data-testid="voice-connection">
            {connection.text}
          </span>
        </span>
        <span className="flex shrink-0 items-center gap-2">
          <span className="text-muted tabular-nums" data-testid="voice-duration">
            {duration}
          </span>
          <button
            type="button"
            className="px-1 text-muted hover:text-primary"
            aria-expanded={!isMinimized}
            data-testid="voice-minimize"
            onClick={() => setMinimized((value) => !value)}
          >
            <span aria-hidden="true">{isMinimized ? '[+]' : '[_]'}</span>
            <span className="sr-only">
              {isMinimized ? 'Expand call window' : 'Minimise call window'}
            </span>
          </button>
          <button
            type="button"
            className="px-1 text-muted hover:text-danger"
            data-testid="voice-close"
            onClick={props.onClose}
          >
            <span aria-hidden="true">[x]</span>
            <span className="sr-only">Leave call</span>
          </button>
        </span>
      </header>
      {isMinimized ? null : (
        <div
          className="min-h-0 space-y-3 overflow-y-auto px-3 py-3 text-xs"
          data-testid="voice-call-body"
        >
          {state.error ? (
            <p
              role="alert"
              className="border border-danger/60 p-2 text-danger"
              data-testid="voice-error"
            >
              {state.error}
            </p>
          ) : null}
          <div>
            <p className="tracking-[0.2em] text-muted uppercase">
              Participants ({state.participants.length})
            </p>
            <ul className="mt-1 space-y-0.5" data-testid="voice-participants">
              {shown.map((participant) => {
                const isSpeaking = state.speaking.includes(participant.nodeId);
                return (
                  <li
                    key={participant.nodeId}
                    className="flex min-w-0 items-center gap-2"
                    data-testid="voice-participant"
                    data-node-id={participant.nodeId}
                    data-speaking={isSpeaking ? 'true' : 'false'}
                  >
                    <span
                      aria-hidden="true"
                      data-testid="voice-speaking-indicator"
                      className={`size-2 shrink-0 rounded-full ${
                        isSpeaking
                          ? 'bg-primary shadow-[0_0_8px_var(--sc-primary)]'
                          : 'border border-border'
                      }`}
                    />
                    <span className="truncate">
                      {participant.username}
                      {participant.nodeId === props.selfNodeId ? ' (you)' : ''}
                    </span>
                    {isSpeaking ? (
                      <span className="shrink-0 text-xs tracking-[0.2em] text-primary">
                        SPEAKING
                      </span>
                    ) : null}
                  </li>
                );
              })}
              {more > 0 ? (
                <li className="text-muted" data-testid="voice-participants-more">
                  +{more} more
                </li>
              ) : null}
              {state.participants.length === 0 ? (
                <li className="text-muted">Waiting for the call roster...</li>
              ) : null}
            </ul>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted">ENCRYPTION</dt>
            <dd className={encryption.tone} data-testid="voice-encryption">
              {encryption.text}
            </dd>
            <dt className="text-muted">KEY ROTATIONS</dt>
            <dd className="tabular-nums" data-testid="voice-rotations">
              {state.rotations}
            </dd>
            <dt className="text-muted">QUALITY</dt>
            <dd
              className={state.quality ? QUALITY_TONE[state.quality] : 'text-muted'}
              data-testid="voice-quality"
            >
              {state.quality ? state.quality.toUpperCase() : 'MEASURING...'}
            </dd>
            <dt className="text-muted">DISGUISE</dt>
            <dd data-testid="voice-disguise-state">{props.isDisguised ? 'ON' : 'OFF'}</dd>
            {state.buffer ? (
              <>
                <dt className="text-muted">BUFFER</dt>
                <dd data-testid="voice-buffer">
                  {state.buffer.requested} frames requested
                  {state.buffer.baseLatencyFrames === null
                    ? ', browser does not report its buffer'
                    : `, browser uses ${state.buffer.baseLatencyFrames} frames`}
                </dd>
              </>
            ) : null}
          </dl>
          {state.applied ? (
            <ul className="space-y-0.5 text-xs" data-testid="voice-tier-applied">
              {state.applied.map((line) => (
                <li
                  key={line.key}
                  data-testid={`voice-tier-${line.key}`}
                  data-applied={line.isApplied ? 'true' : 'false'}
                  className={line.isApplied ? 'text-muted' : 'text-warning'}
                >
                  <span aria-hidden="true">{line.isApplied ? '✓ ' : '! '}</span>
                  {line.text}
                </li>
              ))}
            </ul>
          ) : null}
          <PeerEncryption state={state} />
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={BUTTON}
              aria-pressed={state.isMuted}
              data-testid="voice-mute"
              onClick={props.onToggleMute}
            >
              [ {state.isMuted ? 'UNMUTE' : 'MUTE'} ]
            </button>
            <button
              type="button"
              className={BUTTON}
              aria-pressed={state.isDeafened}
              data-testid="voice-deafen"
              onClick={props.onToggleDeafen}
            >
              [ {state.isDeafened ? 'UNDEAFEN' : 'DEAFEN'} ]
            </button>
            <button
              type="button"
              className={BUTTON}
              role="switch"
              aria-checked={state.encryption === 'active' || state.encryption === 'initializing'}
              disabled={state.encryption === 'unsupported'}
              data-testid="voice-encryption-toggle"
              onClick={props.onToggleEncryption}
            >
              [ E2E {state.encryption === 'off' ? 'OFF' : 'ON'} ]
            </button>
            <button
              type="button"
              className={`${BUTTON} text-danger`}
              data-testid="voice-leave"
              onClick={props.onClose}
            >
              [ LEAVE ]
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

/**
 * Per peer: a signed "encryption off" (their choice: DTLS-SRTP only), or frames refused in the
 * last 2 s (not end to end encrypted without their word, or failing to decrypt: not played); and
 * the `encryption_status` frames that were ignored (unsigned, forged, replayed).
 */
function PeerEncryption({ state }: { state: VoiceCallState }) {
  const lines = state.peers.flatMap((peer) => {
    const out: { key: string; text: string; tone: string; testId: string }[] = [];
    if (peer.sendsClear)
      out.push({
        key: `${peer.nodeId}:clear`,
        text: `${peer.username}: E2E OFF by their signed choice (DTLS-SRTP only)`,
        tone: 'text-warning',
        testId: 'voice-peer-clear',
      });
    if (peer.refusedFrames > 0)
      out.push({
        key: `${peer.nodeId}:refused`,
        text:
          peer.playedFrames > 0
            ? `${peer.username}: ${peer.refusedFrames} frames refused (not end-to-end encrypted or failed to decrypt)`
            : `${peer.username}: MUTED, their audio is not end-to-end encrypted or fails to decrypt`,
        tone: 'text-danger',
        testId: 'voice-peer-refused',
      });
    return out;
  });
  if (lines.length === 0 && state.warnings.length === 0) return null;
  return (
    <ul className="space-y-0.5" data-testid="voice-peer-encryption">
      {lines.map((line) => (
        <li key={line.key} className={line.tone} data-testid={line.testId}>
          <span aria-hidden="true">! </span>
          {line.text}
        </li>
      ))}
      {state.warnings.map((warning) => (
        <li key={warning} role="alert" className="text-danger" data-testid="voice-status-warning">
          <span aria-hidden="true">! </span>
          {warning}
        </li>
      ))}
    </ul>
  );
}

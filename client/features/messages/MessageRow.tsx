/**
 * One chat message (spec 000 §4 "Message display"): time, sender, the body as the cipher shows it,
 * a red PLAINTEXT tag when it travelled unencrypted, and the per-message countdown: red at
 * MESSAGE_WARNING_SECONDS or less, SELF_DESTRUCT_ACTIVE and fading at MESSAGE_CRITICAL_SECONDS.
 * An image in the decrypted payload is shown by ImageMessage (spec 000 §4 "Image"); past the
 * expiry such a row stays 30 s with only IMAGE DESTROYED (chat-line.ts `lineLeavesAtMs`).
 */
import { Suspense } from 'react';
import { MESSAGE_CRITICAL_SECONDS, MESSAGE_WARNING_SECONDS } from '../../../shared/constants.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { ImageLoading, loadImageMessage } from '../images/index.js';
import { secondsLeft, type MessageLine } from './chat-line.js';
import { type MessageSignatureState } from '../../lib/message-cipher.js';
import { StealthText } from './StealthText.js';

// An image arrives only inside a decrypted payload, so its viewer (download, decryption, full
// view) loads after the room has painted, like the room's encryption.
const ImageMessage = lazyComponent(loadImageMessage, 'ImageMessage');

const SIGNATURE_BADGE: Record<
  MessageSignatureState,
  { text: string; className: string; title: string }
> = {
  verified: {
    text: '✓ VERIFIED',
    className: 'border-primary/60 text-primary',
    title: 'Signed by a key holder whose identity key checked out',
  },
  unverified: {
    text: 'UNVERIFIED',
    className: 'border-border text-muted',
    title: 'Signature good, but the sender has no verified identity (anonymous or no key file)',
  },
  bad: {
    text: '✗ BAD SIGNATURE',
    className: 'border-danger text-danger font-bold',
    title: "The signature does not verify, or the sender's keys were substituted",
  },
  replayed: {
    text: '⟲ REPLAYED',
    className: 'border-danger text-danger font-bold',
    title: 'This signed message was seen before, or its signed time is outside its lifetime',
  },
  forged: {
    text: '✗ NOT SENT BY YOU',
    className: 'border-danger text-danger font-bold',
    title: 'Shown under your name, but this tab never sent it: the relay made it up',
  },
};

function SignatureBadge({ state }: { state: MessageSignatureState }) {
  const badge = SIGNATURE_BADGE[state];
  return (
    <span
      data-testid="message-signature"
      data-state={state}
      title={badge.title}
      className={`border px-1 text-xs ${badge.className}`}
    >
      {badge.text}
    </span>
  );
}

function clockTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '--:--:--' : date.toLocaleTimeString([], { hour12: false });
}

function MessageBody({ line }: { line: MessageLine }) {
  const { display, message } = line;
  if (display.state === 'decrypting') {
    return <span className="text-muted">DECRYPTING...</span>;
  }
  if (display.state === 'error') {
    return <span className="text-danger">{display.text}</span>;
  }
  if (message.isStealthMode) return <StealthText text={display.text} />;
  return <span className="whitespace-pre-wrap">{display.text}</span>;
}

export function MessageRow({ line, now }: { line: MessageLine; now: number }) {
  const { message } = line;
  const timeLeft = secondsLeft(line, now);
  const isWarning = timeLeft <= MESSAGE_WARNING_SECONDS;
  const isCritical = timeLeft <= MESSAGE_CRITICAL_SECONDS;
  const isPlaintext = line.display.state === 'plaintext';
  // Only an image row outlives its expiry: its words are gone, IMAGE DESTROYED stays.
  const isExpired = now >= line.expiresAtMs;

  return (
    <li
      data-testid="chat-message"
      data-message-id={line.id}
      data-fading={isCritical ? 'true' : undefined}
      className={`group border-l-2 px-3 py-1.5 transition-opacity duration-1000 ${
        line.isOwn ? 'border-secondary/70 bg-secondary/5' : 'border-primary/40'
      } ${isCritical ? 'opacity-50' : 'opacity-100'}`}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs tracking-wider">
        <time dateTime={message.createdAt} className="text-muted tabular-nums">
          [{clockTime(message.createdAt)}]
        </time>
        <span
          data-testid="message-sender"
          className={`font-bold ${line.isOwn ? 'text-secondary' : 'text-primary'}`}
        >
          {message.senderUsername}
        </span>
        {line.isOwn ? <span className="text-muted">(you)</span> : null}
        {/* The server's own notices (moderation, alerts) carry no member's words to protect. */}
        {isPlaintext && !message.isSystem ? (
          <span
            data-testid="plaintext-tag"
            className="border border-danger px-1 text-xs font-bold text-danger"
          >
            PLAINTEXT — NOT ENCRYPTED
          </span>
        ) : null}
        {!isPlaintext && !message.isSystem && message.encryptionType !== 'none' ? (
          <span data-testid="message-encryption" className="text-xs text-muted">
            [{message.encryptionType}]
          </span>
        ) : null}
        {line.display.signature && !message.isSystem ? (
          <SignatureBadge state={line.display.signature} />
        ) : null}
        {message.isStealthMode ? (
          <span className="border border-border px-1 text-xs text-muted">STEALTH</span>
        ) : null}
        <span
          aria-hidden="true"
          data-testid="message-countdown"
          className={`ml-auto tabular-nums ${isWarning ? 'font-bold text-danger' : 'text-muted'}`}
        >
          {isExpired ? 'DESTROYED' : `${isCritical ? 'SELF_DESTRUCT_ACTIVE ' : ''}${timeLeft}s`}
        </span>
      </div>
      {isExpired ? null : (
        <div data-testid="message-text" className="mt-0.5 text-sm break-words text-fg">
          <MessageBody line={line} />
        </div>
      )}
      {line.display.payload?.image ? (
        <Suspense fallback={<ImageLoading />}>
          <ImageMessage
            image={line.display.payload.image}
            roomId={message.roomId}
            expiresAtMs={line.expiresAtMs}
            now={now}
          />
        </Suspense>
      ) : null}
    </li>
  );
}

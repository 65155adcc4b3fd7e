/**
 * The auto-destruct countdown banner (spec 000 §2, §4; spec 001 §2): time left, ticking every
 * second, yellow above 15 minutes, orange under 15, red under 5. At zero it says the channel is
 * gone and reloads the page after 2 s, which lands on /channel-destroyed once the server has
 * swept the room.
 */
import { useEffect, useState } from 'react';
import { COUNTDOWN_RELOAD_DELAY_MS } from '../../../shared/constants.js';
import {
  COUNTDOWN_TONE_CLASSES,
  countdownAnnouncement,
  countdownTone,
  describeCountdown,
  formatCountdown,
  remainingMs,
} from './countdown.js';

const TICK_MS = 1000;

export interface CountdownBannerProps {
  /** ISO time at which the room self-destructs. */
  destructionAt: string;
}

export function CountdownBanner({ destructionAt }: CountdownBannerProps) {
  const [now, setNow] = useState(() => Date.now());
  const msLeft = remainingMs(destructionAt, now);
  const tone = countdownTone(msLeft);
  const isExpired = tone === 'expired';

  useEffect(() => {
    if (isExpired) return;
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(timer);
  }, [isExpired]);

  useEffect(() => {
    if (!isExpired) return;
    const timer = window.setTimeout(() => window.location.reload(), COUNTDOWN_RELOAD_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [isExpired]);

  return (
    <section
      aria-label="Channel self-destruct"
      data-testid="countdown-banner"
      data-tone={tone}
      className={`flex flex-wrap items-center justify-center gap-x-3 gap-y-0.5 border-y px-3 py-1.5 text-center font-mono text-xs tracking-[0.15em] uppercase ${COUNTDOWN_TONE_CLASSES[tone]}`}
    >
      {isExpired ? (
        <p className="font-bold" data-testid="countdown-expired">
          <span aria-hidden="true" className="animate-pulse">
            [!]{' '}
          </span>
          Self-destruct executed · channel purged · reloading...
        </p>
      ) : (
        <>
          <span className="font-bold">
            <span aria-hidden="true" className={tone === 'critical' ? 'animate-pulse' : undefined}>
              {tone === 'critical' ? '[!!] ' : '[!] '}
            </span>
            {tone === 'critical' ? 'Critical: auto-destruct in' : 'Auto-destruct in'}
          </span>
          <span
            role="timer"
            aria-label={`Time left: ${describeCountdown(msLeft)}`}
            className="font-bold tabular-nums normal-case"
            data-testid="countdown-time"
          >
            {formatCountdown(msLeft)}
          </span>
        </>
      )}
      {/* Announced only when the tone changes, never every second. */}
      <p className="sr-only" aria-live="polite">
        {countdownAnnouncement(tone)}
      </p>
    </section>
  );
}

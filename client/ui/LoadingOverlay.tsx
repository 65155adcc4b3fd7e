/**
 * Full-screen loading overlay (spec 000 §2, §9): shows the message (default LOADING...), fades out
 * over 300 ms when loading ends, and reveals the content behind it 100 ms after that. Once faded
 * it renders nothing, so it never blocks a click.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { LOADING_FADE_MS, LOADING_REVEAL_DELAY_MS } from '../../shared/constants.js';
import { TEXT } from '../../shared/protocol/errors.js';

export interface LoadingOverlayProps {
  isLoading: boolean;
  message?: string;
  children?: ReactNode;
}

type OverlayPhase = 'shown' | 'fading' | 'gone';

export function LoadingOverlay({ isLoading, message, children }: LoadingOverlayProps) {
  const [wasLoading, setWasLoading] = useState(isLoading);
  const [phase, setPhase] = useState<OverlayPhase>(isLoading ? 'shown' : 'gone');
  const [isRevealed, setIsRevealed] = useState(!isLoading);

  // Follow isLoading during render (React's "adjust state on prop change"), not in an effect.
  if (wasLoading !== isLoading) {
    setWasLoading(isLoading);
    if (isLoading) {
      setPhase('shown');
      setIsRevealed(false);
    } else {
      setPhase('fading');
    }
  }

  useEffect(() => {
    if (phase !== 'fading') return;
    const timer = window.setTimeout(() => setPhase('gone'), LOADING_FADE_MS);
    return () => window.clearTimeout(timer);
  }, [phase]);

  useEffect(() => {
    if (isLoading || isRevealed) return;
    const timer = window.setTimeout(() => setIsRevealed(true), LOADING_REVEAL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [isLoading, isRevealed]);

  const text = message ?? TEXT.loading;

  return (
    <>
      {children === undefined ? null : (
        <div
          inert={!isRevealed}
          aria-hidden={!isRevealed}
          className={`transition-opacity duration-300 ${isRevealed ? 'opacity-100' : 'opacity-0'}`}
        >
          {children}
        </div>
      )}
      {phase === 'gone' ? null : (
        <div
          role="status"
          aria-live="polite"
          aria-busy={phase === 'shown'}
          data-testid="loading-overlay"
          className={`fixed inset-0 z-[90] flex items-center justify-center bg-background/95 font-mono transition-opacity ease-out ${
            phase === 'shown' ? 'opacity-100' : 'pointer-events-none opacity-0'
          }`}
          style={{ transitionDuration: `${LOADING_FADE_MS}ms` }}
        >
          <div className="sc-panel w-[26rem] max-w-[90vw] px-6 py-5 text-center">
            <p className="sc-glow sc-cursor text-sm tracking-[0.15em] text-primary uppercase">
              {text}
            </p>
            <div className="sc-progress mt-4" aria-hidden="true" />
            <p className="mt-3 text-xs tracking-[0.2em] text-muted uppercase">
              Secure link // please stand by
            </p>
          </div>
        </div>
      )}
    </>
  );
}

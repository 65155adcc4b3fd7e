import { useEffect, useState } from 'react';
import { ACCESS_MODE_POLL_MS } from '../../../shared/constants.js';
import { ACCESS_MODE_EVENT, readAccessMode, type AccessMode } from './access-mode.js';

/** History events: the browser's popstate plus the ones wouter dispatches for push/replace. */
const HISTORY_EVENTS = ['popstate', 'pushState', 'replaceState'] as const;

export interface AccessModeState {
  mode: AccessMode | null;
  /** The loader text while a change settles, or null. */
  switching: string | null;
}

/** How long the switching loader shows, in ms ("a short time", spec 001 §2). */
export const SWITCHING_LOADER_MS = 400;

/** The current access mode, re-read on a timer and on storage and history events. */
export function useAccessMode(): AccessModeState {
  const [mode, setMode] = useState<AccessMode | null>(readAccessMode);
  const [switching, setSwitching] = useState<string | null>(null);

  useEffect(() => {
    let timer: number | undefined;
    const reread = () => {
      const next = readAccessMode();
      setMode((previous) => {
        if (previous === next) return previous;
        if (next !== null) {
          setSwitching(
            previous === null ? 'INITIALIZING SECURE CHANNELS...' : 'SWITCHING ACCESS MODE...',
          );
          window.clearTimeout(timer);
          timer = window.setTimeout(() => setSwitching(null), SWITCHING_LOADER_MS);
        }
        return next;
      });
    };
    const poll = window.setInterval(reread, ACCESS_MODE_POLL_MS);
    window.addEventListener('storage', reread);
    window.addEventListener(ACCESS_MODE_EVENT, reread);
    for (const name of HISTORY_EVENTS) window.addEventListener(name, reread);
    return () => {
      window.clearInterval(poll);
      window.clearTimeout(timer);
      window.removeEventListener('storage', reread);
      window.removeEventListener(ACCESS_MODE_EVENT, reread);
      for (const name of HISTORY_EVENTS) window.removeEventListener(name, reread);
    };
  }, []);

  return { mode, switching };
}

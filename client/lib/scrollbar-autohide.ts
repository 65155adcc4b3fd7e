/**
 * Scrollbars that show while the user scrolls and hide SCROLLBAR_HIDE_DELAY_MS after the last
 * scroll (spec 000 §9 "Scrollbar hide delay 600 ms"). One capturing listener on the document
 * marks the element being scrolled with `data-scrolling`; styles.css draws a thumb only on marked
 * elements. The hidden thumb is still there to grab: dragging it scrolls, which shows it.
 */
import { SCROLLBAR_HIDE_DELAY_MS } from '../../shared/constants.js';

/** The part of an element the marker touches. */
export interface ScrollMarkTarget {
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

export const SCROLLING_ATTRIBUTE = 'data-scrolling';

interface Timers {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

/**
 * A function to call on every scroll of a target: marks it at once and unmarks it once it has
 * been still for `delayMs`. Each target has its own timer.
 */
export function createScrollMarker(
  delayMs: number = SCROLLBAR_HIDE_DELAY_MS,
  timers: Timers = {
    setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
): (target: ScrollMarkTarget) => void {
  const pending = new Map<ScrollMarkTarget, unknown>();
  return (target) => {
    const previous = pending.get(target);
    if (previous !== undefined) timers.clearTimeout(previous);
    target.setAttribute(SCROLLING_ATTRIBUTE, 'true');
    pending.set(
      target,
      timers.setTimeout(() => {
        pending.delete(target);
        target.removeAttribute(SCROLLING_ATTRIBUTE);
      }, delayMs),
    );
  };
}

/** Installs the marker on the page; returns its removal. */
export function installScrollbarAutoHide(doc: Document = document): () => void {
  const mark = createScrollMarker();
  const onScroll = (event: Event) => {
    const target = event.target;
    if (target === doc) mark(doc.documentElement);
    else if (target instanceof Element) mark(target);
  };
  doc.addEventListener('scroll', onScroll, { capture: true, passive: true });
  return () => doc.removeEventListener('scroll', onScroll, { capture: true });
}

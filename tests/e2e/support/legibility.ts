/** Legibility checks shared by the browser tests: the chat screens' texts are at least 12 px. */
import type { Page } from 'playwright-core';

/** Visible text elements whose computed font size is under `minPx` (sr-only text left out). */
export async function smallTexts(page: Page, minPx: number): Promise<string[]> {
  return page.evaluate((min) => {
    const found: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const ownText = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent?.trim() ?? '')
        .join('');
      if (ownText === '') continue;
      const rect = element.getBoundingClientRect();
      // Hidden (display: none, collapsed) and visually hidden (sr-only: 1×1 px, clipped) text.
      if (rect.width <= 1 || rect.height <= 1) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      const size = Number.parseFloat(style.fontSize);
      if (size < min)
        found.push(`${size}px ${element.tagName.toLowerCase()}: ${ownText.slice(0, 40)}`);
    }
    return found;
  }, minPx);
}

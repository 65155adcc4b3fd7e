/**
 * Holds the active theme (spec 000 §4): classic by default, saved under `secure-channel-theme`,
 * written to the `--sc-*` variables on <html> and a `theme-{id}` class on <body>. Applying repeats
 * at 50, 100 and 200 ms (late-mounting styles cannot win), re-runs when a colour variable reads
 * empty, and broadcasts a `themeChanged` window event.
 */
import { createContext, useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { type ReactNode } from 'react';
import { THEME_REAPPLY_DELAYS_MS } from '../../../shared/constants.js';
import { STORAGE_KEYS, readStorage, writeStorage } from '../../lib/storage-keys.js';
import {
  THEME_CHANGED_EVENT,
  THEME_COLOR_VARIABLES,
  THEME_IDS,
  THEME_LIST,
  THEMES,
  nextThemeId,
  parseThemeId,
  themeVariables,
  type Theme,
  type ThemeChangedDetail,
  type ThemeId,
} from './themes.js';

export interface ThemeContextValue {
  theme: Theme;
  themeId: ThemeId;
  themes: readonly Theme[];
  setTheme: (id: ThemeId) => void;
  cycleTheme: () => void;
}

export const ThemeContext = createContext<ThemeContextValue | null>(null);

const THEME_CLASSES = THEME_IDS.map((id) => `theme-${id}`);

function setBodyThemeClass(id: ThemeId): void {
  document.body.classList.remove(...THEME_CLASSES);
  document.body.classList.add(`theme-${id}`);
}

function writeTheme(theme: Theme): void {
  const style = document.documentElement.style;
  for (const [name, value] of Object.entries(themeVariables(theme))) {
    style.setProperty(name, value);
  }
  setBodyThemeClass(theme.id);
}

function hasMissingColorVariable(): boolean {
  const computed = window.getComputedStyle(document.documentElement);
  return Object.values(THEME_COLOR_VARIABLES).some(
    (name) => computed.getPropertyValue(name).trim() === '',
  );
}

/** Applies a theme; on failure logs it and sets only the body class (spec 000 §8). */
export function applyTheme(theme: Theme): void {
  try {
    writeTheme(theme);
    // A variable that reads empty was dropped by something else: write everything once more.
    if (hasMissingColorVariable()) writeTheme(theme);
  } catch (error) {
    // eslint-disable-next-line no-console -- spec 000 §8 asks for the failure to be logged
    console.warn('Theme could not be applied; falling back to the body class', error);
    try {
      setBodyThemeClass(theme.id);
    } catch {
      // Without a <body> there is nothing left to style.
    }
  }
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [themeId, setThemeId] = useState<ThemeId>(() =>
    parseThemeId(readStorage(STORAGE_KEYS.theme)),
  );

  // Apply before paint, then again at each reapply delay, then tell the rest of the page.
  useLayoutEffect(() => {
    const theme = THEMES[themeId];
    applyTheme(theme);
    const timers = THEME_REAPPLY_DELAYS_MS.map((delay) =>
      window.setTimeout(() => applyTheme(theme), delay),
    );
    window.dispatchEvent(
      new CustomEvent<ThemeChangedDetail>(THEME_CHANGED_EVENT, { detail: { themeId } }),
    );
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [themeId]);

  // Another tab changed the theme: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.theme) setThemeId(parseThemeId(event.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const setTheme = useCallback((id: ThemeId) => {
    writeStorage(STORAGE_KEYS.theme, id);
    setThemeId(id);
  }, []);

  const cycleTheme = useCallback(() => {
    setThemeId((current) => {
      const next = nextThemeId(current);
      writeStorage(STORAGE_KEYS.theme, next);
      return next;
    });
  }, []);

  const value = useMemo<ThemeContextValue>(
    () => ({ theme: THEMES[themeId], themeId, themes: THEME_LIST, setTheme, cycleTheme }),
    [themeId, setTheme, cycleTheme],
  );

  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

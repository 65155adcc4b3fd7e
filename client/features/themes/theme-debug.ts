/**
 * Text for the /debugtheme chat command (spec 000 §2): the active theme as the page sees it, so a
 * user can tell whether a stale stylesheet or a storage problem is to blame for wrong colours.
 */
import { STORAGE_KEYS, readStorage } from '../../lib/storage-keys.js';
import {
  THEME_COLOR_VARIABLES,
  THEME_SIGNAL_VARIABLES,
  THEMES,
  isThemeId,
  type ThemeId,
} from './themes.js';

const THEME_CLASS_PREFIX = 'theme-';

function findThemeClassId(classes: readonly string[]): ThemeId | null {
  for (const name of classes) {
    if (!name.startsWith(THEME_CLASS_PREFIX)) continue;
    const id = name.slice(THEME_CLASS_PREFIX.length);
    if (isThemeId(id)) return id;
  }
  return null;
}

/** A multi-line report: active theme, body classes, every --sc-* variable, the stored value. */
export function describeThemeDebug(): string {
  const bodyClasses = Array.from(document.body.classList);
  const activeId = findThemeClassId(bodyClasses);
  const computed = window.getComputedStyle(document.documentElement);
  const variableNames = [
    ...Object.values(THEME_COLOR_VARIABLES),
    ...Object.values(THEME_SIGNAL_VARIABLES),
  ];
  const stored = readStorage(STORAGE_KEYS.theme);

  return [
    '=== THEME DEBUG ===',
    `Active theme: ${activeId === null ? '(none)' : `${activeId} (${THEMES[activeId].name})`}`,
    `Body classes: ${bodyClasses.length > 0 ? bodyClasses.join(' ') : '(none)'}`,
    'CSS variables:',
    ...variableNames.map((name) => {
      const value = computed.getPropertyValue(name).trim();
      return `  ${name}: ${value === '' ? '(empty)' : value}`;
    }),
    `Stored (${STORAGE_KEYS.theme}): ${stored ?? '(none)'}`,
  ].join('\n');
}

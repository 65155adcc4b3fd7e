/**
 * Theme selector (spec 000 §2): `compact` is one button that cycles to the next theme; `full` is a
 * dropdown listing all six, each with its palette.
 */
import { Suspense } from 'react';
import { Tooltip } from '../../ui/Tooltip.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { THEMES, nextThemeId } from './themes.js';
import { useTheme } from './use-theme.js';

export interface ThemeSelectorProps {
  variant: 'compact' | 'full';
}

function CompactThemeSelector() {
  const { theme, themeId, cycleTheme } = useTheme();
  const next = THEMES[nextThemeId(themeId)];
  return (
    <Tooltip content={`Next theme: ${next.name}`}>
      <button
        type="button"
        data-testid="theme-selector-compact"
        className="sc-btn px-2.5 py-1 text-xs"
        aria-label={`Theme: ${theme.name}. Switch to ${next.name}`}
        onClick={cycleTheme}
      >
        <span aria-hidden="true">[ ◐</span>
        <span>Theme: {theme.name}</span>
        <span aria-hidden="true">]</span>
      </button>
    </Tooltip>
  );
}

// The dropdown (Radix menu) is fetched when a page shows the full selector, so that the pages
// with the compact one (landing, chat) do not load it before they paint.
const ThemeDropdown = lazyComponent(() => import('./ThemeDropdown.js'), 'ThemeDropdown');

export function ThemeSelector({ variant }: ThemeSelectorProps) {
  if (variant === 'compact') return <CompactThemeSelector />;
  return (
    <Suspense fallback={null}>
      <ThemeDropdown />
    </Suspense>
  );
}

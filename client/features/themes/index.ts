/**
 * The themes feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { describeThemeDebug } from './theme-debug.js';
export { nextThemeId, THEMES } from './themes.js';
export { ThemeSelector } from './ThemeSelector.js';
export { useTheme } from './use-theme.js';
export { ThemeProvider } from './ThemeProvider.js';

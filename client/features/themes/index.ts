export { describeThemeDebug } from './theme-debug.js';
export { nextThemeId, THEMES } from './themes.js';
export { ThemeSelector } from './ThemeSelector.js';
export { useTheme } from './use-theme.js';
export { ThemeProvider } from './ThemeProvider.js';

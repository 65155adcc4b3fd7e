import { useContext } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ThemeContext, type ThemeContextValue } from './ThemeProvider.js';

/** The active theme and its setters; throws outside a ThemeProvider (spec 000 §8). */
export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (value === null) throw new Error(TEXT.themeOutsideProvider);
  return value;
}

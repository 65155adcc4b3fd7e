/** Placeholder during the foundation work; replaced in this same change. */
import type { ReactNode } from 'react';
export function ThemeProvider({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

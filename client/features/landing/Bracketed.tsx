import { type ReactNode } from 'react';

/**
 * A terminal-style label such as `[ AUTHENTICATE ]`. The brackets are decoration: screen readers
 * hear only the words.
 */
export function Bracketed({ children }: { children: ReactNode }) {
  return (
    <>
      <span aria-hidden="true" className="opacity-70">
        [
      </span>
      {children}
      <span aria-hidden="true" className="opacity-70">
        ]
      </span>
    </>
  );
}

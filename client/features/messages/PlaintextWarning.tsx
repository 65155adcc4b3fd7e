/**
 * The warning strip above the input while messages travel as the spec's PLAINTEXT fallback
 * (DESIGN.md principle 1: the UI must flag it). It goes away when the cipher is end-to-end.
 */
export function PlaintextWarning() {
  return (
    <p
      role="note"
      data-testid="plaintext-warning"
      className="border-t border-danger/60 bg-danger/10 px-3 py-1 text-[11px] tracking-wider text-danger"
    >
      <span aria-hidden="true">⚠ </span>
      <strong>PLAINTEXT MODE:</strong> not end-to-end encrypted yet
      <span className="hidden sm:inline">
        . The server can read messages until they self-destruct
      </span>
      .
    </p>
  );
}

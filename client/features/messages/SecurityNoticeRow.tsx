/**
 * A security notice in the message list: a screenshot or breach alert (a SECURITY_SYSTEM message,
 * spec 000 §3, or an admin's security_alert broadcast). It is the service speaking, not a member:
 * no sender row, no encryption tag, no PLAINTEXT warning, and it stands out from the chat.
 */
export function SecurityNoticeRow({ text }: { text: string }) {
  // The row already says SECURITY NOTICE: the server's own "SECURITY ALERT: " lead is not repeated.
  const body = text.replace(/^SECURITY ALERT:\s*/, '');
  return (
    <li
      data-testid="security-notice"
      className="mx-3 my-1 border border-danger/70 bg-danger/10 px-3 py-1.5 text-xs text-danger"
    >
      <span className="mr-2 font-bold tracking-widest">
        <span aria-hidden="true">⚠ </span>SECURITY NOTICE
      </span>
      <span className="break-words whitespace-pre-wrap text-fg">{body}</span>
    </li>
  );
}

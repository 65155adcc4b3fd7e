/** 'X is typing...' under the message list (spec 000 §2, §4 "Typing"). */

export function typingText(usernames: readonly string[]): string {
  if (usernames.length === 0) return '';
  if (usernames.length === 1) return `${usernames[0]} is typing...`;
  if (usernames.length === 2) return `${usernames[0]} and ${usernames[1]} are typing...`;
  return `${usernames.length} operatives are typing...`;
}

export function TypingIndicator({ usernames }: { usernames: readonly string[] }) {
  const text = typingText(usernames);
  return (
    <p
      role="status"
      data-testid="typing-indicator"
      className="h-5 truncate px-3 text-xs tracking-wider text-muted"
    >
      {text ? (
        <>
          <span aria-hidden="true" className="text-primary">
            ▍{' '}
          </span>
          {text}
        </>
      ) : null}
    </p>
  );
}

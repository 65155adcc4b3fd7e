/** The title bar of an access card, like a terminal window's. */
export function CardBar({ index, state }: { index: string; state: string }) {
  return (
    <div
      aria-hidden="true"
      className="flex items-center justify-between border-b border-border px-4 py-2 text-xs uppercase tracking-[0.25em] text-muted"
    >
      <span className="flex items-center gap-1.5">
        <span className="size-2 rounded-full bg-danger/70" />
        <span className="size-2 rounded-full bg-warning/70" />
        <span className="size-2 rounded-full bg-primary/70" />
        <span className="ml-2">tty{index}</span>
      </span>
      <span>{state}</span>
    </div>
  );
}

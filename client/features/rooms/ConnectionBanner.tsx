/** The connection banner (spec 000 §2, §4): shown only when disconnected, with RECONNECT. */

export function ConnectionBanner({ onReconnect }: { onReconnect: () => void }) {
  return (
    <div
      role="alert"
      data-testid="connection-banner"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-danger bg-danger/10 px-3 py-1.5 text-xs tracking-wider text-danger"
    >
      <span className="font-bold">CONNECTION_LOST</span>
      <span className="flex-1 text-fg">
        The secure link is down. Messages cannot be sent or received.
      </span>
      <button
        type="button"
        onClick={onReconnect}
        data-testid="reconnect-button"
        className="sc-btn border-danger px-2 py-0.5 text-xs text-danger"
      >
        <span aria-hidden="true">[</span>RECONNECT<span aria-hidden="true">]</span>
      </button>
    </div>
  );
}

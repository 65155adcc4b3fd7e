/**
 * The connection banner (spec 000 §2, §4): shown while the connection is down, with RECONNECT.
 * While it comes back by itself (issue 35) it says when the next try starts; RECONNECT tries now.
 */

export interface ConnectionBannerProps {
  onReconnect: () => void;
  /** "RECONNECTING IN 4 s…" while an automatic try is planned or under way; null when none is. */
  reconnecting: string | null;
}

export function ConnectionBanner({ onReconnect, reconnecting }: ConnectionBannerProps) {
  return (
    <div
      role="alert"
      data-testid="connection-banner"
      data-state={reconnecting ? 'reconnecting' : 'disconnected'}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-danger bg-danger/10 px-3 py-1.5 text-xs tracking-wider text-danger"
    >
      <span className="font-bold">CONNECTION_LOST</span>
      <span className="flex-1 text-fg" data-testid="connection-banner-text">
        {reconnecting
          ? `The secure link is down. ${reconnecting} Messages you type now wait and are sent encrypted once it is back.`
          : 'The secure link is down. Messages cannot be sent or received.'}
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

/**
 * The Tor Network tab (spec 001 §2). This server has no Tor control endpoints yet (the /api/tor/*
 * routes do not exist), so the tab shows the read-only configuration the spec fixes and says
 * plainly that control is not enabled, rather than inventing a status or circuit counts.
 */
import { TOR_DISPLAY_CONFIG } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { BADGE, BADGE_TONE, SECTION_TITLE, TAG } from './admin-styles.js';

const CONFIG_ROWS = [
  { label: 'SOCKS port', value: String(TOR_DISPLAY_CONFIG.socksPort) },
  { label: 'Control port', value: String(TOR_DISPLAY_CONFIG.controlPort) },
  { label: 'Hidden service port', value: String(TOR_DISPLAY_CONFIG.hiddenServicePort) },
  { label: 'Exit policy', value: `${TOR_DISPLAY_CONFIG.exitPolicy} (reject all)` },
] as const;

const STATUS_FIELDS = [
  'running',
  'socksPortOpen',
  'controlPortOpen',
  'hiddenServiceReady',
  'onionAddress',
  'circuits',
  'uptime',
] as const;

export function TorNetworkTab() {
  return (
    <div className="space-y-5">
      <section
        aria-labelledby="admin-tor-status"
        className="border border-warning/60 bg-warning/5 p-4"
        data-testid="tor-status"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="admin-tor-status" className={SECTION_TITLE}>
            Tor status
          </h3>
          <span className={`${BADGE} ${BADGE_TONE.warning}`}>Not enabled</span>
        </div>
        <p role="status" className="mt-3 text-sm font-bold text-warning">
          {TEXT.torControlDisabled}
        </p>
        <p className="mt-2 text-xs leading-relaxed text-muted">
          Start, stop, restart, logs and the onion address need the server&apos;s Tor control
          endpoints, which this build does not provide. Nothing here is simulated: no status,
          circuit or uptime figures are shown until the server reports them.
        </p>
        <ul
          className="mt-3 flex flex-wrap gap-1.5"
          aria-label="Status fields reported once enabled"
        >
          {STATUS_FIELDS.map((field) => (
            <li key={field} className={`${TAG} ${BADGE_TONE.muted}`}>
              {field}: —
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="admin-tor-config"
        className="border border-border bg-background p-4"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="admin-tor-config" className={SECTION_TITLE}>
            Configuration
          </h3>
          <span className={`${BADGE} ${BADGE_TONE.muted}`}>Read-only</span>
        </div>
        <dl
          className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-xs"
          data-testid="tor-config"
        >
          {CONFIG_ROWS.map((row) => (
            <div key={row.label} className="contents">
              <dt className="text-muted uppercase">{row.label}</dt>
              <dd className="font-bold text-fg">{row.value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

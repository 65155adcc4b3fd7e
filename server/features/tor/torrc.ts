/**
 * Writes tor's configuration (DESIGN.md "Tor"). Every listener is on 127.0.0.1, tor starts with
 * `DisableNetwork 1` (TOR CONNECT lifts it through the control port), the exit policy rejects
 * everything, and the onion service (v3) forwards to the app's port.
 *
 * Nothing typed by a user reaches this file unchecked: paths come from DATA_DIR, ports are
 * integers, and bridge lines are rebuilt from fields that passed `parseBridgeLine`'s closed
 * character sets (shared/protocol/http/tor.ts); `assertSafeLine` checks each line once more.
 */
import {
  parseBridgeLine,
  type BridgeFields,
  type BridgeType,
} from '../../../shared/protocol/http/tor.js';

/** Debian's pluggable-transport clients (packages obfs4proxy and snowflake-client). */
export const TRANSPORT_BINARIES = {
  obfs4proxy: '/usr/bin/obfs4proxy',
  snowflake: '/usr/bin/snowflake-client',
} as const;

/** The torrc transport name of each bridge type, and the binary that provides it. */
export const TRANSPORTS: Record<BridgeType, { name: string; binary: string }> = {
  obfs4: { name: 'obfs4', binary: TRANSPORT_BINARIES.obfs4proxy },
  // obfs4proxy implements meek as `meek_lite`.
  meek: { name: 'meek_lite', binary: TRANSPORT_BINARIES.obfs4proxy },
  snowflake: { name: 'snowflake', binary: TRANSPORT_BINARIES.snowflake },
  // Debian 12 packages no webtunnel client; an operator installs one at this path.
  webtunnel: { name: 'webtunnel', binary: '/usr/bin/webtunnel-client' },
};

export interface TorrcOptions {
  /** DATA_DIR/tor/data: tor's state (guards, consensus cache). */
  dataDirectory: string;
  /** DATA_DIR/tor/hidden_service: the onion service's key and hostname. */
  hiddenServiceDir: string;
  cookieFile: string;
  socksPort: number;
  controlPort: number;
  /** Where the onion service forwards: the onion entrance in front of the app. */
  serviceTarget: { host: string; port: number };
  /** The onion service's virtual port (what visitors type after `.onion:`; 80 by default). */
  virtualPort: number;
  /** Active bridges whose transport binary is present. */
  bridges: readonly BridgeFields[];
  /** The pid of the server: tor exits by itself if that process disappears. */
  ownerPid: number;
  /**
   * Whether the installed tor can defend the service with proof of work (tor-capabilities.ts);
   * a tor without it refuses the options, so they are written only when true.
   */
  powDefenses: boolean;
}

/**
 * tor's own defences of the onion service against floods (tor(1), "HIDDEN SERVICE OPTIONS"),
 * ahead of the app's per-circuit limits (server/lib/visitor.ts). A new circuit costs a Tor client
 * seconds, so the app's caps per circuit only hold if circuits cannot be opened without bound:
 * - intro-point rate limit: introductions (new rendezvous circuits) each introduction point
 *   passes on, per second and in a burst; the rest are dropped at the introduction point;
 * - streams per circuit: a circuit past the bound is closed (`CloseCircuit`), which ends its
 *   sockets and HTTP connections at once;
 * - proof of work (tor 0.4.8 and later, when built with it): under load, clients must solve a
 *   puzzle to be introduced, and those that worked harder are served first.
 */
export const ONION_DOS_DEFENSES = {
  /** Introductions per second per introduction point (tor's own default is 25). */
  introRatePerSec: 25,
  /** Introductions in a burst per introduction point (tor's default 200). */
  introBurstPerSec: 200,
  /**
   * Concurrent streams per rendezvous circuit: Tor Browser opens up to 6 HTTP connections to a
   * site and the app holds at most 4 sockets a circuit (ONION_SOCKETS_PER_CIRCUIT); 20 leaves
   * room for both and for connections closing while new ones open.
   */
  maxStreamsPerCircuit: 20,
  /** Rendezvous requests the proof-of-work queue serves per second (tor's default 250). */
  powQueueRate: 250,
  /** ... and in a burst (tor's default 2500). */
  powQueueBurst: 2500,
} as const;

/** The onion service's flood defences as torrc lines; proof of work only when supported. */
export function onionDefenseLines(powDefenses: boolean): string[] {
  const dos = ONION_DOS_DEFENSES;
  return [
    'HiddenServiceEnableIntroDoSDefense 1',
    `HiddenServiceEnableIntroDoSRatePerSec ${dos.introRatePerSec}`,
    `HiddenServiceEnableIntroDoSBurstPerSec ${dos.introBurstPerSec}`,
    `HiddenServiceMaxStreams ${dos.maxStreamsPerCircuit}`,
    'HiddenServiceMaxStreamsCloseCircuit 1',
    ...(powDefenses
      ? [
          'HiddenServicePoWDefensesEnabled 1',
          `HiddenServicePoWQueueRate ${dos.powQueueRate}`,
          `HiddenServicePoWQueueBurst ${dos.powQueueBurst}`,
        ]
      : []),
  ];
}

const SAFE_PATH = /^\/[A-Za-z0-9_./+@-]+$/;

/** Refuses a line that could smuggle a second option (newline, continuation, comment, NUL). */
export function assertSafeLine(line: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\#"]/.test(line)) throw new Error('unsafe torrc line');
  return line;
}

function port(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error('bad torrc port');
  return value;
}

function safePath(value: string): string {
  if (!SAFE_PATH.test(value) || value.includes('..')) {
    throw new Error('DATA_DIR must be an absolute path of letters, digits and _ . / + @ -');
  }
  return value;
}

/** The torrc text, one option a line. */
export function buildTorrc(options: TorrcOptions): string {
  const target = options.serviceTarget;
  const targetHost = target.host === '::1' ? '[::1]' : target.host;
  if (!/^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/.test(targetHost)) {
    throw new Error('the onion service must forward to a loopback address');
  }
  const lines = [
    `DataDirectory ${safePath(options.dataDirectory)}`,
    `SocksPort 127.0.0.1:${port(options.socksPort)}`,
    `ControlPort 127.0.0.1:${port(options.controlPort)}`,
    'CookieAuthentication 1',
    `CookieAuthFile ${safePath(options.cookieFile)}`,
    // Never a relay, never an exit; no other listener than the two above.
    'ClientOnly 1',
    'ExitPolicy reject *:*',
    'ExitRelay 0',
    'ORPort 0',
    'DirPort 0',
    // Connect and disconnect flip this through the control port; the file always says 1.
    'DisableNetwork 1',
    `HiddenServiceDir ${safePath(options.hiddenServiceDir)}`,
    `HiddenServicePort ${port(options.virtualPort)} ${targetHost}:${port(target.port)}`,
    // Each stream opens with a PROXY line naming its circuit (server/features/tor/onion-entrance.ts),
    // so limits count onion visitors one circuit at a time.
    'HiddenServiceExportCircuitID haproxy',
    // Belong to the HiddenServiceDir above: tor reads service options up to the next one.
    ...onionDefenseLines(options.powDefenses),
    'Log notice stdout',
    'SafeLogging 1',
    'AvoidDiskWrites 1',
    `__OwningControllerProcess ${options.ownerPid}`,
  ];
  const used = new Set(options.bridges.map((bridge) => bridge.type));
  if (options.bridges.length > 0) {
    if (used.has('obfs4') || used.has('meek')) {
      lines.push(`ClientTransportPlugin obfs4,meek_lite exec ${TRANSPORT_BINARIES.obfs4proxy}`);
    }
    if (used.has('snowflake')) {
      lines.push(`ClientTransportPlugin snowflake exec ${TRANSPORT_BINARIES.snowflake}`);
    }
    if (used.has('webtunnel')) {
      lines.push(`ClientTransportPlugin webtunnel exec ${TRANSPORTS.webtunnel.binary}`);
    }
    lines.push('UseBridges 1');
    for (const bridge of options.bridges) lines.push(bridgeLine(bridge));
  }
  const header = '# Written by SecureChannel on every start; edits are overwritten.';
  return `${[header, ...lines.map(assertSafeLine)].join('\n')}\n`;
}

/** `Bridge <transport> <address> <fingerprint> [args]`, re-validated field by field. */
export function bridgeLine(bridge: BridgeFields): string {
  const fields = [bridge.type, bridge.address, bridge.fingerprint, ...bridge.args].join(' ');
  const parsed = parseBridgeLine(fields);
  if (!parsed) throw new Error('bridge failed validation');
  const transport = TRANSPORTS[parsed.type].name;
  return ['Bridge', transport, parsed.address, parsed.fingerprint, ...parsed.args].join(' ');
}

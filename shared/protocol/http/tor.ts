/**
 * HTTP schemas of Tor control and bridges (spec 000 §3, §5, §7; spec 001 §3, §4, §7), and the
 * rules that decide which bridge lines may reach tor's configuration.
 *
 * A bridge becomes one torrc line, `Bridge <transport> <address> <fingerprint> [key=value ...]`,
 * so every field is checked against a closed character set here: no whitespace inside a field,
 * no newline, no `#` (comment), no `\` (line continuation), no quote. A line that passes cannot
 * add a second option to the torrc.
 */
import { z } from 'zod';

/** Bridge transports the product offers (spec 000 §3). */
export const BRIDGE_TYPES = ['obfs4', 'meek', 'snowflake', 'webtunnel'] as const;
export const BridgeTypeSchema = z.enum(BRIDGE_TYPES);
export type BridgeType = z.infer<typeof BridgeTypeSchema>;

/** Texts of the bridge dialogs and cards (spec 000 §5, §8). */
export const TOR_TEXT = {
  invalidBridgeTitle: 'Invalid Bridge Configuration',
  addressAndFingerprintRequired: 'Address and fingerprint are required',
  invalidBridgeAddress: 'Bridge address must be IPv4:port or [IPv6]:port',
  invalidBridgeFingerprint: 'Bridge fingerprint must be 40 hexadecimal characters',
  invalidBridgeArgument: 'Bridge options must be key=value pairs without spaces, quotes, # or \\',
  invalidBridgeCountry: 'Country must be letters, spaces, dots or hyphens',
  bridgeAdded: 'Bridge Added',
  importFailedTitle: 'Import Failed',
  noValidBridges: 'No valid bridges found in the provided configuration',
  bridgesImported: 'Bridges Imported',
  bridgeRemoved: 'Bridge Removed',
  bridgeNotFound: 'Bridge not found',
  bridgeTestSuccessful: 'Bridge Test Successful',
  bridgeTestFailed: 'Bridge Test Failed',
  bridgeTestError: 'Bridge Test Error',
  bridgeTestErrorDetail: 'Failed to test bridge connectivity',
  copied: 'Copied!',
  copyFailedTitle: 'Copy failed',
  copyOnionFailed: 'Failed to copy onion address to clipboard',
  fetchStatusFailed: 'Failed to fetch Tor status',
  networkError: 'Network Error',
  startFailed: 'Failed to start Tor',
  stopFailed: 'Failed to stop Tor',
  restartFailed: 'Failed to restart Tor',
  unavailable: 'Tor is not installed on this server: set TOR_BIN or install the tor package',
  notRunning: 'Tor is not running',
} as const;

/** Default country of an imported bridge (spec 000 §5). */
export const UNKNOWN_COUNTRY = 'Unknown';

/** A v3 (56) or legacy v2 (16) onion address (spec 000 §5). */
export const ONION_ADDRESS_PATTERN = /^(?:[a-z2-7]{56}|[a-z2-7]{16})\.onion$/;

/** True when `value` is an onion address in the spec's format. */
export function isOnionAddress(value: string): boolean {
  return ONION_ADDRESS_PATTERN.test(value);
}

const IPV4_PORT = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/;
const IPV6_PORT = /^\[([0-9A-Fa-f:.]{2,45})\]:(\d{1,5})$/;
const FINGERPRINT = /^[0-9A-Fa-f]{40}$/;
/** `key=value`; the value is a closed set: enough for cert=, url=, front=, ice=, fronts=, utls-imitate=. */
const BRIDGE_ARGUMENT = /^[A-Za-z][A-Za-z0-9_-]{0,31}=[A-Za-z0-9+/=_.,:;~%?&@!*()[\]$-]{1,600}$/;
const COUNTRY = /^[\p{L}][\p{L} .'-]{0,63}$/u;
const MAX_ARGUMENTS = 8;
/** Longest bridge line considered at all; longer ones are skipped unread. */
export const MAX_BRIDGE_LINE = 2048;
/** Largest import text (about 200 lines of obfs4 bridges). */
export const MAX_BRIDGE_IMPORT = 256 * 1024;

function isValidPort(text: string): boolean {
  const port = Number(text);
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

/** True for `a.b.c.d:port` or `[v6]:port` with a valid port. */
export function isBridgeAddress(value: string): boolean {
  const v4 = IPV4_PORT.exec(value);
  if (v4) return v4.slice(1, 5).every((octet) => Number(octet) <= 255) && isValidPort(v4[5]!);
  const v6 = IPV6_PORT.exec(value);
  return v6 !== null && v6[1]!.includes(':') && isValidPort(v6[2]!);
}

/** True for one transport option, `key=value`, that is safe on a torrc line. */
export function isBridgeArgument(value: string): boolean {
  return BRIDGE_ARGUMENT.test(value);
}

/** The fields of one bridge, validated; `args` are the transport's `key=value` options. */
export interface BridgeFields {
  type: BridgeType;
  address: string;
  fingerprint: string;
  args: string[];
}

/** Parses one line of an import (`type address fingerprint [key=value ...]`), or null. */
export function parseBridgeLine(line: string): BridgeFields | null {
  if (line.length > MAX_BRIDGE_LINE) return null;
  // Tabs and spaces separate fields; any other control character (CR, NUL, ...) refuses the line.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(line)) return null;
  const words = line.trim().split(/[ \t]+/);
  // Lines copied from a torrc start with the option name.
  if (words[0] === 'Bridge') words.shift();
  const [type, address, fingerprint, ...args] = words;
  const parsedType = BridgeTypeSchema.safeParse(type);
  if (!parsedType.success || !address || !fingerprint) return null;
  if (!isBridgeAddress(address) || !FINGERPRINT.test(fingerprint)) return null;
  if (args.length > MAX_ARGUMENTS || !args.every(isBridgeArgument)) return null;
  return {
    type: parsedType.data,
    address,
    fingerprint: fingerprint.toUpperCase(),
    args,
  };
}

/** An import's outcome: the valid bridges, and how many non-comment lines were refused. */
export interface BridgeImport {
  bridges: BridgeFields[];
  rejected: number;
}

/** Parses an import (spec 000 §5): one bridge a line; blank lines and `#` lines are skipped. */
export function parseBridgeImport(text: string): BridgeImport {
  const bridges: BridgeFields[] = [];
  let rejected = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const bridge = parseBridgeLine(line);
    if (bridge) bridges.push(bridge);
    else rejected += 1;
  }
  return { bridges, rejected };
}

/** The last test of a bridge: asked for, or the server's own every 30 s while tor runs. */
export const BridgeTestResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  testedAt: z.iso.datetime(),
});
export type BridgeTestResult = z.infer<typeof BridgeTestResultSchema>;

/** A stored bridge (spec 000 §3), as the admin screens see it. */
export const BridgeSchema = z.object({
  id: z.uuid(),
  type: BridgeTypeSchema,
  address: z.string(),
  fingerprint: z.string(),
  /** Transport options (`cert=…`, `url=…`), each `key=value`. */
  args: z.array(z.string()),
  country: z.string(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Bridge = z.infer<typeof BridgeSchema>;

/** `GET /api/tor/bridges`: the bridges, and which transports this machine lacks. */
export const BridgeListSchema = z.object({
  bridges: z.array(BridgeSchema.extend({ lastTest: BridgeTestResultSchema.nullable().optional() })),
  /** Transport binaries that are missing, e.g. `/usr/bin/snowflake-client (snowflake)`. */
  missingTransports: z.array(z.string()),
});
export type BridgeList = z.infer<typeof BridgeListSchema>;

const requiredText = z.string().trim().min(1, TOR_TEXT.addressAndFingerprintRequired);

/** `POST /api/tor/bridges`: add one bridge (spec 000 §5: address and fingerprint required). */
export const AddBridgeRequestSchema = z
  .strictObject({
    type: BridgeTypeSchema.default('obfs4'),
    address: requiredText.max(300).refine(isBridgeAddress, TOR_TEXT.invalidBridgeAddress),
    fingerprint: requiredText
      .max(100)
      .refine((value) => FINGERPRINT.test(value), TOR_TEXT.invalidBridgeFingerprint)
      .transform((value) => value.toUpperCase()),
    /** Space-separated `key=value` transport options, e.g. obfs4's `cert=… iat-mode=0`. */
    args: z
      .string()
      .trim()
      .max(MAX_BRIDGE_LINE)
      .optional()
      .transform((value) => (value ? value.split(/[ \t]+/) : []))
      .refine(
        (args) => args.length <= MAX_ARGUMENTS && args.every(isBridgeArgument),
        TOR_TEXT.invalidBridgeArgument,
      ),
    /** Optional (spec 000 §5); Unknown when empty. */
    country: z
      .string()
      .trim()
      .max(64)
      .optional()
      .refine((value) => !value || COUNTRY.test(value), TOR_TEXT.invalidBridgeCountry),
  })
  .transform((body) => ({ ...body, country: body.country || UNKNOWN_COUNTRY }));
export type AddBridgeRequest = z.input<typeof AddBridgeRequestSchema>;

/**
 * The route's body shape: plain bounded strings. The handler then applies
 * AddBridgeRequestSchema so that a refusal carries the spec's text (the generic validation error
 * names only the field).
 */
export const AddBridgeBodySchema = z.strictObject({
  type: z.string().max(16).optional(),
  address: z.string().max(300),
  fingerprint: z.string().max(100),
  args: z.string().max(MAX_BRIDGE_LINE).optional(),
  country: z.string().max(64).optional(),
});

/** `POST /api/tor/bridges/import`: the pasted configuration. */
export const ImportBridgesRequestSchema = z.strictObject({
  config: z.string().max(MAX_BRIDGE_IMPORT),
});
export const ImportBridgesResponseSchema = z.object({
  imported: z.number().int().nonnegative(),
  rejected: z.number().int().nonnegative(),
  bridges: z.array(BridgeSchema),
});
export type ImportBridgesResponse = z.infer<typeof ImportBridgesResponseSchema>;

export const BridgeParamsSchema = z.strictObject({ id: z.uuid() });

/** `POST /api/tor/bridges/:id/test`. */
export const BridgeTestResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
});
export type BridgeTestResponse = z.infer<typeof BridgeTestResponseSchema>;

/** Bytes read and written by tor since it started. */
export const TorBandwidthSchema = z.object({
  read: z.number().int().nonnegative(),
  written: z.number().int().nonnegative(),
});

/** The Tor states of spec 000 §4, plus the two a server can also be in. */
export const TorStateSchema = z.enum([
  'unavailable',
  'stopped',
  'disconnected',
  'connecting',
  'connected',
]);
export type TorState = z.infer<typeof TorStateSchema>;

/** `GET /api/tor/status` (spec 000 §3, §7): what any visitor may read. */
export const TorStatusSchema = z.object({
  state: TorStateSchema,
  connected: z.boolean(),
  circuits: z.number().int().nonnegative(),
  bandwidth: TorBandwidthSchema,
  hiddenServiceReachable: z.boolean(),
  onionAddress: z.string().nullable(),
  /** tor's bootstrap progress, 0–100, while the network is enabled. */
  bootstrapProgress: z.number().int().min(0).max(100),
});
export type TorStatus = z.infer<typeof TorStatusSchema>;

/** The admin form of the status (spec 001 §3, §4): the same call with an admin bearer token. */
export const TorAdminStatusSchema = TorStatusSchema.extend({
  running: z.boolean(),
  socksPortOpen: z.boolean(),
  controlPortOpen: z.boolean(),
  hiddenServiceReady: z.boolean(),
  /**
   * When the onion service last answered (or failed) its own self-test through tor, ISO 8601;
   * null while not connected or before the first test (hiddenServiceReachable is then false).
   */
  hiddenServiceCheckedAt: z.string().datetime().nullable(),
  /** Seconds since tor started; 0 when stopped. */
  uptime: z.number().int().nonnegative(),
  version: z.string().nullable(),
  socksPort: z.number().int(),
  controlPort: z.number().int(),
  /** The app port the onion service forwards to (spec's "hidden service 5000"); null before listen. */
  servicePort: z.number().int().nullable(),
  /** Why tor is unavailable or last failed; null when all is well. */
  message: z.string().nullable(),
});
export type TorAdminStatus = z.infer<typeof TorAdminStatusSchema>;

/** Either form; admin fields present only for admins. */
export const TorStatusResponseSchema = z.union([TorAdminStatusSchema, TorStatusSchema]);

/** `POST /api/tor/connect` (spec 000 §7). */
export const TorConnectResponseSchema = z.object({
  success: z.boolean(),
  circuits: z.number().int().nonnegative(),
  onionAddress: z.string().nullable(),
  message: z.string(),
});
export type TorConnectResponse = z.infer<typeof TorConnectResponseSchema>;

/** `POST /api/tor/disconnect`, start, stop, restart, test-hidden-service (spec 000 §7, 001 §7). */
export const TorActionResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  onionAddress: z.string().nullable(),
});
export type TorActionResponse = z.infer<typeof TorActionResponseSchema>;

/** `GET /api/tor/logs`: tor's last log lines, oldest first (spec 001 §7, console form). */
export const TorLogsSchema = z.object({ logs: z.array(z.string()) });
export type TorLogs = z.infer<typeof TorLogsSchema>;

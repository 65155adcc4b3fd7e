/**
 * What the landing page says about the product. Every claim here must stay true of this code
 * base (DESIGN.md and the specs): no invented certifications, audits or user counts, and the
 * comparison names categories, never real products. Numbers come from shared/constants.ts.
 */
import {
  AES_GCM_IV_BYTES,
  AUTH_CHALLENGE_TTL_MS,
  DEFAULT_MESSAGE_TTL_SECONDS,
  ECDSA_P256_SIGNATURE_BYTES,
  IMAGE_MAX_BYTES,
  ML_DSA_65_PRIVATE_KEY_BYTES,
  ML_DSA_65_PUBLIC_KEY_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
  PAYMENT_CURRENCIES,
  PBKDF2_ITERATIONS,
  PFS_KEY_ROTATION_MS,
  SIGNATURE_KEY_ROTATION_MS,
} from '../../../shared/constants.js';

const MINUTE_MS = 60 * 1000;
const IMAGE_MAX_MB = IMAGE_MAX_BYTES / (1024 * 1024);
const numberFormat = new Intl.NumberFormat('en-US');

/** Formats a byte count as "3,309 bytes". */
function bytes(count: number): string {
  return `${numberFormat.format(count)} bytes`;
}

/** In-page sections, in the order of the top navigation (spec 001 §2). */
export const LANDING_SECTIONS = [
  { id: 'access', label: 'ACCESS' },
  { id: 'features', label: 'FEATURES' },
  { id: 'comparison', label: 'COMPARISON' },
  { id: 'specs', label: 'SPECS' },
] as const;

export interface Feature {
  /** Short upper-case label shown as the card title. */
  title: string;
  /** One or two sentences a careful user can hold us to. */
  body: string;
}

export const FEATURES: readonly Feature[] = [
  {
    title: 'ENCRYPTED IN YOUR BROWSER',
    body: 'Room messages are encrypted before they leave the browser. The server relays ciphertext and never holds a key that could decrypt it. If encryption ever fails, the message is visibly flagged PLAINTEXT.',
  },
  {
    title: 'GONE IN 30 SECONDS',
    body: `Room messages are held in memory, never in the database, and are deleted from the server after about ${DEFAULT_MESSAGE_TTL_SECONDS} seconds, not merely hidden by the client.`,
  },
  {
    title: 'SELF-DESTRUCTING IMAGES',
    body: `Images up to ${IMAGE_MAX_MB} MB are encrypted with AES-GCM in the browser before upload and destroyed when they expire.`,
  },
  {
    title: 'ROOMS WITH CLEARANCE LEVELS',
    body: 'Create rooms at public, restricted, classified or top-secret level, protect them with an access code, and set a self-destruct timer from 30 seconds to 24 hours. A destroyed room takes its messages and members with it.',
  },
  {
    title: 'KEY-FILE LOGIN',
    body: 'A .sck key file holds an ML-DSA-65 and an ECDSA P-256 key pair. Login is a challenge–response signed with both; no password is sent and the server stores only public keys.',
  },
  {
    title: 'PRIVATE DIRECT MESSAGES',
    body: 'Key holders exchange end-to-end encrypted direct messages in threads that self-destruct on a timer. A kill switch destroys a thread for both sides.',
  },
  {
    title: 'ENCRYPTED GROUP VOICE',
    body: 'Group calls run peer to peer over WebRTC, and every audio frame is sealed again end to end (AES-256-GCM) under per-speaker keys that reach the other participants only through the room’s post-quantum hybrid key exchange and rotate every 30 seconds. Voice disguise shifts pitch and formants independently in your browser, before your audio leaves it.',
  },
  {
    title: 'TOR ONION SERVICE',
    body: 'The server can publish itself as a Tor onion service, with obfs4, meek, snowflake and webtunnel bridges for censored networks. A connection check tells you whether you arrive over Tor, a VPN or directly.',
  },
  {
    title: 'KEYS FOR CRYPTOCURRENCY',
    body: `Buy a key with one of ${PAYMENT_CURRENCIES.length} cryptocurrencies. Once the payment is confirmed on chain the key is made for you and can be downloaded exactly once; the server then erases its copy.`,
  },
  {
    title: 'ADMIN TOOLS AND EMERGENCY SHUTDOWN',
    body: 'Administrators issue and revoke keys, send broadcasts, control Tor, and can shut every channel down at once, then restore service.',
  },
  {
    title: 'SELF-HOSTED',
    body: 'Runs on one machine with an embedded PostgreSQL. Point it at PostgreSQL and Redis to run several server processes behind a load balancer.',
  },
];

/** A cell of the comparison table. */
export type Support = 'yes' | 'no' | 'varies';

export interface ComparisonRow {
  property: string;
  secureChannel: Support;
  hostedMessenger: Support;
  selfHostedTeamChat: Support;
}

/** Column headings of the comparison table, after the property column. */
export const COMPARISON_COLUMNS = [
  'SecureChannel',
  'Typical hosted messenger',
  'Self-hosted team chat',
] as const;

/**
 * Honest, checkable properties. Where the categories genuinely differ from product to product the
 * cell says so, and the rows include what SecureChannel gives up (history) as well as what it has.
 */
export const COMPARISON_ROWS: readonly ComparisonRow[] = [
  {
    property: 'Join without an account or phone number',
    secureChannel: 'yes',
    hostedMessenger: 'no',
    selfHostedTeamChat: 'no',
  },
  {
    property: `Messages deleted from the server after ~${DEFAULT_MESSAGE_TTL_SECONDS} s`,
    secureChannel: 'yes',
    hostedMessenger: 'no',
    selfHostedTeamChat: 'no',
  },
  {
    property: 'Content encrypted in the browser or app',
    secureChannel: 'yes',
    hostedMessenger: 'varies',
    selfHostedTeamChat: 'varies',
  },
  {
    property: 'Post-quantum signatures for login',
    secureChannel: 'yes',
    hostedMessenger: 'no',
    selfHostedTeamChat: 'no',
  },
  {
    property: 'Self-hostable',
    secureChannel: 'yes',
    hostedMessenger: 'no',
    selfHostedTeamChat: 'yes',
  },
  {
    property: 'Built-in Tor onion service',
    secureChannel: 'yes',
    hostedMessenger: 'no',
    selfHostedTeamChat: 'no',
  },
  {
    property: 'Documented, open wire protocol',
    secureChannel: 'yes',
    hostedMessenger: 'varies',
    selfHostedTeamChat: 'yes',
  },
  {
    property: 'Encrypted group voice calls',
    secureChannel: 'yes',
    hostedMessenger: 'yes',
    selfHostedTeamChat: 'varies',
  },
  {
    property: 'Searchable message history',
    secureChannel: 'no',
    hostedMessenger: 'yes',
    selfHostedTeamChat: 'yes',
  },
];

export interface SpecEntry {
  label: string;
  value: string;
  detail: string;
}

/** The technical numbers, each taken from shared/constants.ts. */
export const SPECS: readonly SpecEntry[] = [
  {
    label: 'POST-QUANTUM SIGNATURE',
    value: 'ML-DSA-65 (FIPS 204)',
    detail: `signature ${bytes(ML_DSA_65_SIGNATURE_BYTES)} · public key ${bytes(ML_DSA_65_PUBLIC_KEY_BYTES)} · private key ${bytes(ML_DSA_65_PRIVATE_KEY_BYTES)}`,
  },
  {
    label: 'CLASSICAL SIGNATURE',
    value: 'ECDSA P-256 / SHA-256',
    detail: `${bytes(ECDSA_P256_SIGNATURE_BYTES)} signature (r‖s), alongside ML-DSA-65`,
  },
  {
    label: 'CONTENT CIPHER',
    value: 'AES-256-GCM',
    detail: `${AES_GCM_IV_BYTES}-byte random IV per message, 128-bit tag`,
  },
  {
    label: 'KEY DERIVATION',
    value: 'PBKDF2-SHA-256',
    detail: `${numberFormat.format(PBKDF2_ITERATIONS)} iterations`,
  },
  {
    label: 'MESSAGE LIFETIME',
    value: `${DEFAULT_MESSAGE_TTL_SECONDS} s`,
    detail: 'deleted from the server at expiry',
  },
  {
    label: 'IMAGE LIMIT',
    value: `${IMAGE_MAX_MB} MB`,
    detail: 'encrypted before upload, destroyed at expiry',
  },
  {
    label: 'PFS KEY ROTATION',
    value: `${PFS_KEY_ROTATION_MS / MINUTE_MS} min`,
    detail: 'forward-secrecy keys replaced on schedule',
  },
  {
    label: 'SIGNATURE KEY ROTATION',
    value: `${SIGNATURE_KEY_ROTATION_MS / MINUTE_MS} min`,
    detail: 'message-signing keys replaced on schedule',
  },
  {
    label: 'LOGIN CHALLENGE',
    value: `${AUTH_CHALLENGE_TTL_MS / MINUTE_MS} min`,
    detail: 'single use, signed with both key pairs',
  },
  {
    label: 'KEY FILE',
    value: '.sck / .bin',
    detail: 'JSON, keys as byte arrays, self-signed with ML-DSA-65',
  },
];

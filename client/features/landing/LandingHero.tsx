import {
  DEFAULT_MESSAGE_TTL_SECONDS,
  ML_DSA_65_SIGNATURE_BYTES,
} from '../../../shared/constants.js';
import { GLOW_TEXT, PANEL } from '../../ui/landing-styles.js';

const BADGES = [
  'ML-DSA-65',
  'ECDSA P-256',
  'AES-256-GCM',
  `TTL ${DEFAULT_MESSAGE_TTL_SECONDS}S`,
  'TOR',
];

/** A status readout, as decoration: every fact in it is stated again in the sections below. */
const STATUS_LINES = [
  ['relay', 'BLIND · CIPHERTEXT ONLY'],
  ['messages', `MEMORY · TTL ${DEFAULT_MESSAGE_TTL_SECONDS}S`],
  ['login', 'ML-DSA-65 + ECDSA P-256'],
  ['signature', `${ML_DSA_65_SIGNATURE_BYTES} BYTES`],
  ['transport', 'WEBSOCKET · TOR ONION'],
  ['hosting', 'YOUR MACHINE'],
] as const;

/** The page's one h1, under a fake prompt line, with a status readout beside it. */
export function LandingHero() {
  return (
    <div className="grid items-center gap-10 pt-10 sm:pt-16 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div>
        <p aria-hidden="true" className="mb-4 text-xs text-muted sm:text-sm">
          <span className="text-primary">operator@securechannel</span>:~$ ./connect --secure
        </p>
        <h1
          className={`text-3xl font-bold uppercase leading-tight tracking-[0.06em] text-balance text-primary sm:text-5xl ${GLOW_TEXT}`}
        >
          Encrypted chat that <span className="whitespace-nowrap">self-destructs</span>
          <span aria-hidden="true" className="ml-1 animate-pulse text-accent">
            _
          </span>
        </h1>
        <p className="mt-6 max-w-2xl text-sm leading-relaxed text-fg sm:text-base">
          SecureChannel is a terminal-styled chat you can host yourself. Messages are encrypted
          before they leave your browser and deleted from the server after about{' '}
          {DEFAULT_MESSAGE_TTL_SECONDS} seconds.
        </p>
        <ul aria-label="Core primitives" className="mt-6 flex flex-wrap gap-2 text-xs">
          {BADGES.map((badge) => (
            <li
              key={badge}
              className="border border-border bg-surface px-2 py-1 uppercase tracking-[0.2em] text-secondary"
            >
              {badge}
            </li>
          ))}
        </ul>
      </div>
      <div aria-hidden="true" className={`${PANEL} hidden text-xs lg:block`}>
        <div className="border-b border-border px-4 py-2 uppercase tracking-[0.25em] text-muted">
          $ securechannel status
        </div>
        <dl className="space-y-2 p-4">
          {STATUS_LINES.map(([key, value]) => (
            <div key={key} className="flex gap-2">
              <dt className="w-24 shrink-0 text-muted">{key}</dt>
              <dd className="text-primary">{value}</dd>
            </div>
          ))}
          <div className="flex gap-2 pt-2">
            <dt className="w-24 shrink-0 text-muted">state</dt>
            <dd className="flex items-center gap-2 text-accent">
              <span className="size-2 animate-pulse rounded-full bg-primary" />
              LISTENING
            </dd>
          </div>
        </dl>
      </div>
    </div>
  );
}

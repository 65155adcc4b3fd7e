/**
 * /get-key: how to obtain a key file. Keys are issued by this server's operator (admin panel or
 * `npm run keygen`); the tiers and their minimums are those of spec 001 §3, §9.
 */
import { Link } from 'wouter';
import { TIER_MIN_USD } from '../../../shared/constants.js';

const TIERS = [
  {
    id: 'general',
    name: 'GENERAL ACCESS',
    description: 'Key-file login, direct messages and Quantum Pong.',
  },
  {
    id: 'restricted',
    name: 'RESTRICTED ACCESS',
    description: 'Everything in General, for teams that run restricted channels.',
  },
  {
    id: 'classified',
    name: 'CLASSIFIED ACCESS',
    description: 'Everything in Restricted, for operators of classified channels.',
  },
] as const;

export function GetKeyPage() {
  return (
    <main className="min-h-screen bg-background px-4 py-10 text-fg">
      <div className="mx-auto max-w-4xl">
        <h1 className="mb-2 text-2xl font-bold tracking-widest text-primary">
          OBTAIN A SECURE KEY
        </h1>
        <p className="mb-8 max-w-2xl text-sm text-muted">
          A key file (.sck) holds an ML-DSA-65 and an ECDSA P-256 key pair. Its private keys are
          made for you and never stored by the server. Keys are issued by the operator of this
          SecureChannel server; contact them with the tier you need.
        </p>
        <ul className="mb-8 grid gap-4 md:grid-cols-3">
          {TIERS.map((tier) => (
            <li
              key={tier.id}
              className="rounded border border-border bg-surface p-4"
              data-testid={`tier-${tier.id}`}
            >
              <h2 className="mb-1 text-sm font-bold tracking-widest text-primary">{tier.name}</h2>
              <p className="mb-3 text-2xl text-accent">
                ${TIER_MIN_USD[tier.id]}
                <span className="ml-1 text-xs text-muted">minimum</span>
              </p>
              <p className="text-xs text-muted">{tier.description}</p>
            </li>
          ))}
        </ul>
        <p className="mb-6 rounded border border-warning/50 p-3 text-xs text-warning" role="note">
          Online payment is not enabled on this server. Operators issue keys from the admin panel or
          with <code>npm run keygen</code>.
        </p>
        <div className="flex gap-3">
          <Link
            href="/landing"
            className="rounded border border-border px-3 py-2 text-xs tracking-widest hover:bg-primary/10"
          >
            [ BACK TO LANDING ]
          </Link>
          <Link
            href="/"
            className="rounded border border-primary px-3 py-2 text-xs tracking-widest text-primary hover:bg-primary/10"
          >
            [ PUBLIC CHANNEL ]
          </Link>
        </div>
      </div>
    </main>
  );
}

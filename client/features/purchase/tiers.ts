/**
 * What the tier cards say (spec 001 §3 "Tier"; issue 32). Every claim must stay true of this
 * code base: below admin every permission level carries the same capabilities
 * (`capabilitiesForLevel`, server/features/auth), so the tiers unlock the same features and
 * differ only in the permission level recorded for the key (docs/decisions.md "Key purchase").
 * The cards say exactly that, so that no price difference is shown without its difference.
 */
import { DEFAULT_KEY_VALIDITY_DAYS, TIER_MIN_USD } from '../../../shared/constants.js';
import { TIER_KEY_LEVEL, type TierId } from '../../../shared/protocol/http/payments.js';

export interface Tier {
  id: TierId;
  name: string;
  description: string;
  minAmountUsd: number;
  /** The tier's security level label (spec 001 §3): the permission level recorded for the key. */
  securityLevel: string;
  /** What every tier gets. */
  features: string[];
  /** The one thing that differs from the other tiers. */
  difference: string;
}

/** Said once above the cards: paying more buys no capability on this server. */
export const TIERS_NOTE =
  'All three tiers unlock the same features on this server. The only difference is the ' +
  'permission level recorded for your key (shown in your registration receipt and to the ' +
  "server's administrators); it grants nothing more here. A higher amount is a contribution.";

const COMMON_FEATURES = [
  'Key-file login: ML-DSA-65 + ECDSA P-256',
  'Chat and image uploads',
  'End-to-end encrypted direct messages',
  'Quantum Pong',
  `Valid ${DEFAULT_KEY_VALIDITY_DAYS} days`,
];

function tier(id: TierId, name: string): Tier {
  const level = TIER_KEY_LEVEL[id].toUpperCase();
  return {
    id,
    name,
    description: 'The same features as every tier.',
    minAmountUsd: TIER_MIN_USD[id],
    securityLevel: level,
    features: COMMON_FEATURES,
    difference: `Only difference: the key is recorded at the ${level} level (no extra capability)`,
  };
}

export const TIERS: readonly Tier[] = [
  tier('general', 'GENERAL ACCESS'),
  tier('restricted', 'RESTRICTED ACCESS'),
  tier('classified', 'CLASSIFIED ACCESS'),
];

/** Full names of the currencies, for the picker. */
export const CURRENCY_NAMES: Record<string, string> = {
  BTC: 'Bitcoin',
  ETH: 'Ethereum',
  USDT: 'Tether',
  ADA: 'Cardano',
  ATOM: 'Cosmos',
  AVAX: 'Avalanche',
  BCH: 'Bitcoin Cash',
  BNB: 'BNB',
  DASH: 'Dash',
  DOGE: 'Dogecoin',
  DOT: 'Polkadot',
  ETC: 'Ethereum Classic',
  FIL: 'Filecoin',
  LINK: 'Chainlink',
  LTC: 'Litecoin',
  MATIC: 'Polygon',
  NEAR: 'NEAR',
  SHIB: 'Shiba Inu',
  SOL: 'Solana',
  TRX: 'Tron',
  UNI: 'Uniswap',
  USDC: 'USD Coin',
  XLM: 'Stellar',
  XMR: 'Monero',
  XRP: 'XRP',
  ZEC: 'Zcash',
};

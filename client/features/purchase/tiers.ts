/**
 * What the tier cards say (spec 001 §3 "Tier"). Every claim must stay true of this code base:
 * the tiers unlock the same features and differ in the permission level recorded for the key
 * (docs/decisions.md "Key purchase").
 */
import { DEFAULT_KEY_VALIDITY_DAYS, TIER_MIN_USD } from '../../../shared/constants.js';
import { TIER_KEY_LEVEL, type TierId } from '../../../shared/protocol/http/payments.js';

export interface Tier {
  id: TierId;
  name: string;
  description: string;
  minAmountUsd: number;
  /** The tier's security level label (spec 001 §3). */
  securityLevel: string;
  features: string[];
}

const COMMON_FEATURES = [
  'Key-file login: ML-DSA-65 + ECDSA P-256',
  'End-to-end encrypted direct messages',
  'Quantum Pong',
  `Valid ${DEFAULT_KEY_VALIDITY_DAYS} days`,
];

function features(id: TierId): string[] {
  return [...COMMON_FEATURES, `Permission level: ${TIER_KEY_LEVEL[id].toUpperCase()}`];
}

export const TIERS: readonly Tier[] = [
  {
    id: 'general',
    name: 'GENERAL ACCESS',
    description: 'A personal key for key-holder features on this server.',
    minAmountUsd: TIER_MIN_USD.general,
    securityLevel: 'STANDARD',
    features: features('general'),
  },
  {
    id: 'restricted',
    name: 'RESTRICTED ACCESS',
    description: 'The same features, recorded at the observer level.',
    minAmountUsd: TIER_MIN_USD.restricted,
    securityLevel: 'RESTRICTED',
    features: features('restricted'),
  },
  {
    id: 'classified',
    name: 'CLASSIFIED ACCESS',
    description: 'The same features, recorded at the user level.',
    minAmountUsd: TIER_MIN_USD.classified,
    securityLevel: 'CLASSIFIED',
    features: features('classified'),
  },
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

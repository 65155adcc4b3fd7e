/**
 * Exact decimal amounts of cryptocurrency as scaled integers: the buyer must send the exact
 * amount (spec 001 §2), so comparisons never go through floats.
 */

/** Every amount is compared at 18 decimal places (the finest unit of the 26 currencies). */
const SCALE = 18;
const SCALE_FACTOR = 10n ** BigInt(SCALE);

/** Parses a decimal string such as "0.00166667" into units of 10^-18; null when malformed. */
export function parseDecimal(text: string): bigint | null {
  const match = /^(\d{1,20})(?:\.(\d{1,18}))?$/.exec(text);
  if (!match) return null;
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(SCALE, '0'));
  return whole * SCALE_FACTOR + fraction;
}

/** Writes units of 10^-18 as a decimal string with at most `decimals` places, trailing zeros kept. */
export function formatDecimal(units: bigint, decimals: number = SCALE): string {
  const whole = units / SCALE_FACTOR;
  const fraction = (units % SCALE_FACTOR).toString().padStart(SCALE, '0').slice(0, decimals);
  return decimals > 0 ? `${whole}.${fraction}` : `${whole}`;
}

/** A non-negative finite number as a decimal string (no exponent), or null. */
export function numberToDecimal(value: number): string | null {
  if (!Number.isFinite(value) || value < 0 || value >= 1e20) return null;
  return value.toFixed(SCALE).replace(/\.?0+$/, '') || '0';
}

/**
 * `usd / pricePerCoin` rounded UP to `decimals` places, as a decimal string: the buyer never
 * pays less than the tier's minimum.
 */
export function quoteAmount(usd: number, pricePerCoin: number, decimals: number): string {
  const factor = 10 ** decimals;
  const raw = (usd / pricePerCoin) * factor;
  // A float quotient a hair above an integer must not add a whole unit.
  const units = Math.ceil(raw - 1e-6);
  const scaled = BigInt(units) * 10n ** BigInt(SCALE - decimals);
  return formatDecimal(scaled, decimals);
}

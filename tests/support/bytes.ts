/** Byte helpers the crypto tests share. */

/** A copy of `bytes` with one bit flipped: bit `bit` of byte `index` (negative: from the end). */
export function flipBit(bytes: Uint8Array, index: number, bit = 0): Uint8Array {
  const copy = Uint8Array.from(bytes);
  const at = index < 0 ? copy.length + index : index;
  copy[at] = copy[at]! ^ (1 << bit);
  return copy;
}

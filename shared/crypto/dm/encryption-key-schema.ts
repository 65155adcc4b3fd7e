/**
 * The shapes of a key holder's direct-message encryption key pair (docs/crypto.md, "Direct
 * messages"), apart from the code that makes and uses it (encryption-keys.ts): a page that only
 * parses a key file or a registration body loads no ML-KEM or X25519 code.
 */
import { z } from 'zod';
import { isByteValue } from '../bytes.js';
import { ML_KEM_768_PUBLIC_KEY_BYTES, ML_KEM_768_SECRET_KEY_BYTES } from '../room/ml-kem-sizes.js';

const bytes = (length: number) => z.array(z.number().refine(isByteValue)).length(length);

/** The public half, as it travels in key files and registration bodies (number arrays). */
export const EncryptionPublicKeySchema = z.strictObject({
  kem: bytes(ML_KEM_768_PUBLIC_KEY_BYTES),
  x25519: bytes(32),
});
export type EncryptionPublicKey = z.infer<typeof EncryptionPublicKeySchema>;

/** The private half, kept only in the key file. */
export const EncryptionPrivateKeySchema = z.strictObject({
  kem: bytes(ML_KEM_768_SECRET_KEY_BYTES),
  x25519: bytes(32),
});
export type EncryptionPrivateKey = z.infer<typeof EncryptionPrivateKeySchema>;

/**
 * This tab's Ed25519 key for signing uploads (spec 000 §9 "requests signed with Ed25519"): made
 * once, on the first upload, and kept in memory only, so it dies with the tab.
 */
import { generateUploadKeyPair } from '../../../shared/crypto/upload-signature.js';

export type UploadKeyPair = ReturnType<typeof generateUploadKeyPair>;

let sessionKeyPair: UploadKeyPair | null = null;

export function uploadSigningKey(): UploadKeyPair {
  sessionKeyPair ??= generateUploadKeyPair();
  return sessionKeyPair;
}

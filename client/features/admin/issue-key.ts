/**
 * Issuing a key from the browser (spec 001 §2 "Key Management", §8): the key pair is made here,
 * only its public part is registered, and the file (private keys included) is handed to the
 * admin. When the registration fails the key is not thrown away: it is handed over with the
 * spec's warning 'Key generated but not registered with server' and the reason, so the admin can
 * retry the registration or register the file later (issue 21).
 */
import { createKeyFile } from '../../../shared/crypto/key-file.js';
import {
  keyFileName,
  serializeKeyFile,
  type KeyFile,
} from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { registerKeyPublicPart, type AdminCredential } from '../../lib/admin/admin-api.js';
import { downloadTextFile } from '../../lib/download.js';
import { type KeyGenerationRequest } from './key-generation.js';

export type IssuedKey =
  { keyFile: KeyFile; registered: true } | { keyFile: KeyFile; registered: false; reason: string };

/** Registers `keyFile`'s public part; the reason of a refusal instead of a throw. */
export async function registerIssuedKey(
  keyFile: KeyFile,
  credential: AdminCredential,
): Promise<IssuedKey> {
  try {
    await registerKeyPublicPart(keyFile, credential);
    return { keyFile, registered: true };
  } catch (error) {
    return {
      keyFile,
      registered: false,
      reason:
        error instanceof Error && error.message !== '' ? error.message : TEXT.registrationFailed,
    };
  }
}

/** Makes the key (throws 'Generation Failed' problems) and registers it. */
export async function issueKey(
  request: KeyGenerationRequest,
  credential: AdminCredential,
): Promise<IssuedKey> {
  const keyFile = await createKeyFile(request);
  return registerIssuedKey(keyFile, credential);
}

/** Saves the whole key file through a Blob URL (download.ts). */
export function downloadKeyFile(keyFile: KeyFile): void {
  downloadTextFile(keyFileName(keyFile.username), serializeKeyFile(keyFile));
}

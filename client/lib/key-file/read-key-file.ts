/**
 * Reads a chosen key file in the browser: name, parse and integrity check, with the texts of
 * spec 001 §5, §8. The file and its private keys stay in this tab.
 */
import {
  KEY_FILE_MAX_CHARS,
  isKeyFileName,
  parseKeyFileText,
  type KeyFile,
} from '../../../shared/crypto/key-file-schema.js';
import { verifyKeyFileIntegrity } from '../../../shared/crypto/key-file.js';
import { TEXT } from '../../../shared/protocol/errors.js';

export type ReadKeyFileResult =
  { ok: true; keyFile: KeyFile } | { ok: false; title: string; description: string };

export async function readKeyFile(
  file: File,
  wrongTypeText: string = TEXT.invalidFileTypeKeyPage,
): Promise<ReadKeyFileResult> {
  if (!isKeyFileName(file.name))
    return { ok: false, title: TEXT.invalidFileType, description: wrongTypeText };
  if (file.size > KEY_FILE_MAX_CHARS)
    return { ok: false, title: TEXT.uploadFailed, description: TEXT.failedToLoadKeyFile };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { ok: false, title: TEXT.uploadFailed, description: TEXT.failedToLoadKeyFile };
  }
  const parsed = parseKeyFileText(text);
  if (!parsed.ok) return { ok: false, title: TEXT.uploadFailed, description: parsed.error };
  if (
    parsed.keyFile.dilithiumPrivateKey === undefined ||
    parsed.keyFile.ecdsaPrivateKey === undefined
  ) {
    return {
      ok: false,
      title: TEXT.uploadFailed,
      description: 'This key file holds no private keys',
    };
  }
  const integrity = await verifyKeyFileIntegrity(parsed.keyFile);
  if (!integrity.ok) return { ok: false, title: TEXT.uploadFailed, description: integrity.error };
  return { ok: true, keyFile: parsed.keyFile };
}

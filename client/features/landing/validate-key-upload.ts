/**
 * The landing page's check of a chosen key file (spec 001 §5): the name must end in .sck or .bin,
 * the text must be JSON, and the JSON must carry keyId, username and permissions. This is only a
 * first look at the file; the integrity check and the challenge–response login come later.
 * Pure, so that it runs unchanged in unit tests.
 */
import { z } from 'zod';
import { TEXT } from '../../../shared/protocol/errors.js';

/** Key file extensions accepted on the landing page, compared case-insensitively. */
export const KEY_FILE_EXTENSIONS = ['.sck', '.bin'] as const;

/** The `accept` attribute of the key-file input. */
export const KEY_FILE_ACCEPT = KEY_FILE_EXTENSIONS.join(',');

/**
 * A key file is a few tens of KiB (ML-DSA-65 keys as number arrays); anything far larger is not
 * a key file, and is refused before it is read or parsed.
 */
export const MAX_KEY_FILE_BYTES = 1024 * 1024;

/**
 * The fields the landing page insists on. Other fields are kept as they are: the whole key is
 * handed, in this browser only, to the login step, which parses it exactly.
 */
export const PendingKeySchema = z.looseObject({
  keyId: z.string().min(1),
  username: z.string().min(1),
  permissions: z.looseObject({}),
});
export type PendingKey = z.infer<typeof PendingKeySchema>;

export type KeyUploadResult =
  { ok: true; keyData: PendingKey } | { ok: false; title: string; description: string };

/** True when the name ends in .sck or .bin, in any letter case. */
export function hasKeyFileExtension(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return KEY_FILE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** The failure shown when a file cannot be read or is too large to be a key file. */
export const KEY_FILE_UNREADABLE: KeyUploadResult = {
  ok: false,
  title: TEXT.uploadFailed,
  description: TEXT.failedToLoadKeyFile,
};

/** Checks a chosen file's name and text in the order of spec 001 §5. */
export function validateKeyUpload(fileName: string, text: string): KeyUploadResult {
  if (!hasKeyFileExtension(fileName)) {
    return { ok: false, title: TEXT.invalidFileType, description: TEXT.invalidFileTypeLanding };
  }
  if (text.length > MAX_KEY_FILE_BYTES) return KEY_FILE_UNREADABLE;

  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(text);
  } catch {
    return { ok: false, title: TEXT.uploadFailed, description: TEXT.invalidKeyJson };
  }

  const parsed = PendingKeySchema.safeParse(parsedJson);
  if (!parsed.success) {
    return { ok: false, title: TEXT.uploadFailed, description: TEXT.invalidKeyFields };
  }
  return { ok: true, keyData: parsed.data };
}

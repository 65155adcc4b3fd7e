/**
 * What the landing page checks of a chosen key file before reading it (spec 001 §5): its name and
 * its size. Apart from the text's check (validate-key-upload.ts, which re-exports these): the
 * landing page needs these before it paints, the schema only once a file is chosen.
 */
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

/** The failure shown when a file cannot be read, is too large, or its check cannot load. */
export const KEY_FILE_UNREADABLE = {
  ok: false,
  title: TEXT.uploadFailed,
  description: TEXT.failedToLoadKeyFile,
} as const;

/** True when the name ends in .sck or .bin, in any letter case. */
export function hasKeyFileExtension(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return KEY_FILE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/**
 * The landing page's check of a chosen key file (spec 001 §5): the name must end in .sck or .bin,
 * the text must be JSON, and the JSON must carry keyId, username and permissions. This is only a
 * first look at the file; the integrity check and the challenge–response login come later.
 * Pure, so that it runs unchanged in unit tests.
 */
import { z } from 'zod';
import { TEXT } from '../../../shared/protocol/errors.js';
import { KEY_FILE_UNREADABLE, MAX_KEY_FILE_BYTES, hasKeyFileExtension } from './key-file-name.js';

export {
  KEY_FILE_ACCEPT,
  KEY_FILE_UNREADABLE,
  KEY_FILE_EXTENSIONS,
  MAX_KEY_FILE_BYTES,
  hasKeyFileExtension,
} from './key-file-name.js';

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

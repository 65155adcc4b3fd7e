/**
 * A key's permission level and capabilities, apart from the key file's schema so that the HTTP
 * schemas (and the client's first page) can use them without loading the key file's crypto.
 */
import { z } from 'zod';

/** Permission levels (spec 000 §3). The level that counts is the server's record, not the file's. */
export const KeyPermissionLevelSchema = z.enum(['admin', 'user', 'observer', 'guest']);
export type KeyPermissionLevel = z.infer<typeof KeyPermissionLevelSchema>;

/** Capabilities a key may carry (spec 000 §3). */
export const KeyCapabilitySchema = z.enum(['admin', 'chat', 'upload', 'moderate']);
export type KeyCapability = z.infer<typeof KeyCapabilitySchema>;

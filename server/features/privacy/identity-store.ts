/**
 * The server's long-term identity key (DESIGN.md "Server identity"), kept in the settings table so
 * that every process of one service presents the same key: the first process to start creates it,
 * the others read it (insert-if-absent, then read back, so two processes starting together agree).
 * With the embedded database the table lives under DATA_DIR. The secret never leaves this module
 * except as the key pair handed to the signer; it is never logged.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/connect.js';
import { settings } from '../../db/schema.js';
import { hexToBytes, toHex } from '../../../shared/crypto/bytes.js';
import {
  generateServerIdentity,
  serverIdentityFromSecret,
  type ServerIdentityKeyPair,
} from '../../../shared/crypto/server-identity.js';

const IDENTITY_KEY = 'server_identity_ed25519';

const StoredIdentitySchema = z.strictObject({
  secretKey: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime(),
});

export interface IdentityStore {
  /** The service's identity, created on first use. */
  load(): Promise<ServerIdentityKeyPair>;
}

export function createIdentityStore(db: Db, now: () => number): IdentityStore {
  return {
    load: async () => {
      const fresh = generateServerIdentity();
      await db
        .insert(settings)
        .values({
          key: IDENTITY_KEY,
          value: { secretKey: toHex(fresh.secretKey), createdAt: new Date(now()).toISOString() },
        })
        .onConflictDoNothing();
      fresh.secretKey.fill(0);
      const rows = await db.select().from(settings).where(eq(settings.key, IDENTITY_KEY)).limit(1);
      const stored = StoredIdentitySchema.safeParse(rows[0]?.value);
      if (!stored.success) throw new Error('The stored server identity is malformed');
      return serverIdentityFromSecret(hexToBytes(stored.data.secretKey));
    },
  };
}

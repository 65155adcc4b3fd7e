/**
 * Drizzle table definitions. They mirror migrations/*.sql, which are the source of truth for the
 * database; tests/contracts/schema-drift.test.ts fails when the two disagree.
 */
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** bytea as Uint8Array, for public keys and signatures. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => new Uint8Array(value),
});

export const rooms = pgTable('rooms', {
  id: uuid('id').primaryKey(),
  secureId: text('secure_id').notNull().unique(),
  name: text('name').notNull(),
  isPrivate: boolean('is_private').notNull().default(false),
  securityLevel: text('security_level', {
    enum: ['public', 'restricted', 'classified', 'top_secret'],
  })
    .notNull()
    .default('public'),
  accessCodeHash: text('access_code_hash'),
  selfDestructTimer: doublePrecision('self_destruct_timer'),
  destructionAt: timestamp('destruction_at', { withTimezone: true, mode: 'date' }),
  isDefault: boolean('is_default').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  /** The key holder who created the room (its admin); null for anonymous creators. */
  creatorKeyId: text('creator_key_id'),
  /** Moderation lock: new joins need the access code. */
  isLocked: boolean('is_locked').notNull().default(false),
  /** Set at creation: key holders need the access code too (spec 000 §4's bypass turned off). */
  codeRequiredForKeyHolders: boolean('code_required_for_key_holders').notNull().default(false),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Registered keys: public parts only. */
export const keys = pgTable('keys', {
  keyId: text('key_id').primaryKey(),
  userId: text('user_id').notNull().unique(),
  username: text('username').notNull(),
  dilithiumPublicKey: bytea('dilithium_public_key').notNull(),
  ecdsaPublicKey: bytea('ecdsa_public_key').notNull(),
  fingerprint: text('fingerprint').notNull().unique(),
  permissionLevel: text('permission_level', {
    enum: ['admin', 'user', 'observer', 'guest'],
  }).notNull(),
  capabilities: text('capabilities').array().notNull(),
  rooms: text('rooms').array().notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  selfSignature: bytea('self_signature').notNull(),
  hardwareFingerprint: text('hardware_fingerprint').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  kemPublicKey: bytea('kem_public_key'),
  x25519PublicKey: bytea('x25519_public_key'),
  encryptionKeySignature: bytea('encryption_key_signature'),
});

export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  keyId: text('key_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const adminSessions = pgTable('admin_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Admin actions, kept durably. */
export const auditLog = pgTable('audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  detail: jsonb('detail').notNull().default({}),
  /** Set on rows that aggregate a time window (failed admin logins); unique when set. */
  windowKey: text('window_key'),
});

/** Direct-message threads between two key holders. */
export const dmThreads = pgTable('dm_threads', {
  id: uuid('id').primaryKey(),
  participant1: text('participant1').notNull(),
  participant2: text('participant2').notNull(),
  mode: text('mode', { enum: ['e2e'] }).notNull(),
  wrappedKey1: text('wrapped_key1').notNull(),
  wrappedKey2: text('wrapped_key2').notNull(),
  keyCommitment: text('key_commitment').notNull(),
  signatureMlDsa: text('signature_ml_dsa').notNull(),
  signatureEcdsa: text('signature_ecdsa').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Direct messages: ciphertext only. */
export const dmMessages = pgTable('dm_messages', {
  id: uuid('id').primaryKey(),
  threadId: uuid('thread_id').notNull(),
  senderKeyId: text('sender_key_id').notNull(),
  encrypted: text('encrypted').notNull(),
  iv: text('iv').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull(),
  signedAt: text('signed_at').notNull(),
  signature: text('signature').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Key purchases (migration 0010): the payment state machine, one row per payment. */
export const payments = pgTable('payments', {
  idHash: text('id_hash').primaryKey(),
  ref: text('ref').notNull().unique(),
  provider: text('provider', { enum: ['sandbox', 'nowpayments'] }).notNull(),
  providerRef: text('provider_ref'),
  tier: text('tier', { enum: ['general', 'restricted', 'classified'] }).notNull(),
  amountUsd: integer('amount_usd').notNull(),
  currency: text('currency').notNull(),
  address: text('address').notNull(),
  extraId: text('extra_id'),
  amount: text('amount').notNull(),
  status: text('status', {
    enum: ['pending', 'confirming', 'confirmed', 'generating', 'ready', 'expired', 'failed'],
  }).notNull(),
  confirmations: integer('confirmations').notNull().default(0),
  requiredConfirmations: integer('required_confirmations').notNull(),
  transactionHash: text('transaction_hash'),
  paidAmount: text('paid_amount'),
  broadcastAt: timestamp('broadcast_at', { withTimezone: true, mode: 'date' }),
  providerCheckedAt: timestamp('provider_checked_at', { withTimezone: true, mode: 'date' }),
  /** The processor's own status of the payment, as last learnt (migration 0014). */
  providerStatus: text('provider_status'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  generationClaim: text('generation_claim'),
  generationStartedAt: timestamp('generation_started_at', { withTimezone: true, mode: 'date' }),
  keyId: text('key_id'),
  /** The name the buyer chose before paying (issue 32). */
  username: text('username'),
  /** Random text the buyer's two keys sign, with the payment's ref, to prove possession. */
  keyChallenge: text('key_challenge'),
  /** The public part (JSON) of the key the buyer's browser made; never a private key. */
  publicKey: text('public_key'),
  keyReadyAt: timestamp('key_ready_at', { withTimezone: true, mode: 'date' }),
  downloadedAt: timestamp('downloaded_at', { withTimezone: true, mode: 'date' }),
  keyErasedAt: timestamp('key_erased_at', { withTimezone: true, mode: 'date' }),
});

/** Moderators appointed by a room's admins (key holders only). */
export const roomRoles = pgTable('room_roles', {
  roomId: uuid('room_id').notNull(),
  keyId: text('key_id').notNull(),
  role: text('role', { enum: ['moderator'] }).notNull(),
  appointedBy: text('appointed_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Kick cool-downs, mutes and bans in a room, deleted once `until` has passed. */
export const roomSanctions = pgTable('room_sanctions', {
  id: uuid('id').primaryKey(),
  roomId: uuid('room_id').notNull(),
  kind: text('kind', { enum: ['kick', 'mute', 'ban'] }).notNull(),
  subject: text('subject').notNull(),
  subjectName: text('subject_name').notNull(),
  until: timestamp('until', { withTimezone: true, mode: 'date' }),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** A room's moderation log, kept 30 days. */
export const roomModerationLog = pgTable('room_moderation_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  roomId: uuid('room_id').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  actor: text('actor').notNull(),
  actorRole: text('actor_role').notNull(),
  action: text('action').notNull(),
  target: text('target'),
  detail: jsonb('detail').notNull().default({}),
});

/** Tor bridges (spec 000 §3), validated before they are stored; written into the torrc. */
export const torBridges = pgTable('tor_bridges', {
  id: uuid('id').primaryKey(),
  type: text('type', { enum: ['obfs4', 'meek', 'snowflake', 'webtunnel'] }).notNull(),
  address: text('address').notNull(),
  fingerprint: text('fingerprint').notNull(),
  args: text('args').array().notNull().default([]),
  country: text('country').notNull().default('Unknown'),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Every table, for Drizzle's relational helpers and the drift test. */
export const schema = {
  rooms,
  settings,
  keys,
  sessions,
  adminSessions,
  auditLog,
  dmThreads,
  dmMessages,
  payments,
  roomRoles,
  roomSanctions,
  roomModerationLog,
  torBridges,
};

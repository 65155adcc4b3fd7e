/**
 * Drizzle table definitions. They mirror migrations/*.sql, which are the source of truth for the
 * database; tests/contracts/schema-drift.test.ts fails when the two disagree.
 */
import { boolean, doublePrecision, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Every table, for Drizzle's relational helpers and the drift test. */
export const schema = { rooms, settings };

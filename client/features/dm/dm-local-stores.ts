/**
 * What the direct-messages screen remembers in this browser besides the identity pins
 * (client/features/e2ee/identity-trust.ts): which contacts the user marked verified after
 * comparing safety numbers (keyId → the fingerprint they compared), and the last message counter
 * used in each thread, so a counter is never used twice. Neither holds key material or text.
 * Each has a memory form for tests and a localStorage form for the page; a malformed stored value
 * counts as nothing stored.
 */
import { z } from 'zod';
import { FINGERPRINT_PATTERN } from '../../../shared/crypto/fingerprint.js';
import { DM_COUNTERS_STORAGE_KEY, DM_VERIFIED_STORAGE_KEY } from './dm-constants.js';

/** keyId → the fingerprint the user compared and marked verified. */
export interface VerifiedContactStore {
  get(keyId: string): string | null;
  set(keyId: string, fingerprint: string): void;
  remove(keyId: string): void;
}

/** threadId → the last counter this browser used there. */
export interface CounterStore {
  get(threadId: string): number;
  set(threadId: string, counter: number): void;
}

export class MemoryVerifiedStore implements VerifiedContactStore {
  readonly marks = new Map<string, string>();
  get(keyId: string) {
    return this.marks.get(keyId) ?? null;
  }
  set(keyId: string, fingerprint: string) {
    this.marks.set(keyId, fingerprint);
  }
  remove(keyId: string) {
    this.marks.delete(keyId);
  }
}

export class MemoryCounterStore implements CounterStore {
  readonly counters = new Map<string, number>();
  get(threadId: string) {
    return this.counters.get(threadId) ?? 0;
  }
  set(threadId: string, counter: number) {
    this.counters.set(threadId, counter);
  }
}

const VerifiedSchema = z.record(z.string().max(40), z.string().regex(FINGERPRINT_PATTERN));
const CountersSchema = z.record(z.string().max(80), z.number().int().min(0));

function readRecord<T>(key: string, schema: z.ZodType<Record<string, T>>): Record<string, T> {
  try {
    const raw = window.localStorage.getItem(key);
    const parsed = schema.safeParse(raw === null ? {} : JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function writeRecord(key: string, value: Record<string, unknown>): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused: the mark lasts for this visit only; nothing is trusted because of it.
  }
}

export class LocalStorageVerifiedStore implements VerifiedContactStore {
  get(keyId: string) {
    const marks = readRecord(DM_VERIFIED_STORAGE_KEY, VerifiedSchema);
    return Object.hasOwn(marks, keyId) ? (marks[keyId] ?? null) : null;
  }
  set(keyId: string, fingerprint: string) {
    writeRecord(DM_VERIFIED_STORAGE_KEY, {
      ...readRecord(DM_VERIFIED_STORAGE_KEY, VerifiedSchema),
      [keyId]: fingerprint,
    });
  }
  remove(keyId: string) {
    const { [keyId]: _removed, ...rest } = readRecord(DM_VERIFIED_STORAGE_KEY, VerifiedSchema);
    writeRecord(DM_VERIFIED_STORAGE_KEY, rest);
  }
}

export class LocalStorageCounterStore implements CounterStore {
  get(threadId: string) {
    const counters = readRecord(DM_COUNTERS_STORAGE_KEY, CountersSchema);
    return Object.hasOwn(counters, threadId) ? (counters[threadId] ?? 0) : 0;
  }
  set(threadId: string, counter: number) {
    writeRecord(DM_COUNTERS_STORAGE_KEY, {
      ...readRecord(DM_COUNTERS_STORAGE_KEY, CountersSchema),
      [threadId]: counter,
    });
  }
}

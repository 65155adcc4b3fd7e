/**
 * "Remember this key on this device" (docs/crypto.md, "Remembered key"): the key file of a login,
 * sealed with AES-256-GCM and kept in this browser's IndexedDB so a reload or a new tab restores
 * the identity without the file.
 *
 * One record, under one name. In the clear it holds only the key id, the username and how it is
 * sealed; the key file itself (with its three private keys) is in the ciphertext. The additional
 * data binds the ciphertext to that key id and mode, so a record cannot be relabelled.
 *
 * - `device`: the AES key is a non-extractable WebCrypto key made for this record and stored next
 *   to it (IndexedDB keeps a CryptoKey as an opaque handle). This browser can use it; nothing can
 *   read its bytes out through WebCrypto.
 * - `passphrase`: the AES key is derived from a passphrase the user sets, PBKDF2-SHA-256 with
 *   {@link PBKDF2_ITERATIONS} iterations and a 16-byte random salt; nothing of it is stored. The
 *   derivation yields 64 bytes: the first 32 the AES key, the SHA-256 of the last 32 is stored as
 *   a check value, so a wrong passphrase is told apart from a changed record.
 *
 * The storage is injected (an IndexedDB store in the browser, a map in the unit tests).
 */
import {
  KeyFileSchema,
  serializeKeyFile,
  type KeyFile,
} from '../../../shared/crypto/key-file-schema.js';
import { REMEMBER_PASSPHRASE_MIN_LENGTH } from './remember-policy.js';
import { constantTimeEqual, utf8Decode, utf8Encode } from '../../../shared/crypto/bytes.js';

/** PBKDF2-SHA-256 iterations of the passphrase mode (OWASP's 2023 figure for PBKDF2-SHA-256). */
export const PBKDF2_ITERATIONS = 600_000;
export { REMEMBER_PASSPHRASE_MIN_LENGTH };
const RECORD_VERSION = 1 as const;

export type RememberMode = 'device' | 'passphrase';

/** What is stored. Byte fields are Uint8Array; `wrappingKey` only in device mode. */
export interface RememberedKeyRecord {
  version: typeof RECORD_VERSION;
  keyId: string;
  username: string;
  mode: RememberMode;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
  /** device mode: the non-extractable AES-GCM key. */
  wrappingKey?: CryptoKey;
  /** passphrase mode: PBKDF2 salt, iterations and SHA-256 of the derived check half. */
  salt?: Uint8Array<ArrayBuffer>;
  iterations?: number;
  check?: Uint8Array<ArrayBuffer>;
}

/** Where the record lives: IndexedDB in the browser. */
export interface RememberedKeyStorage {
  read(): Promise<RememberedKeyRecord | null>;
  write(record: RememberedKeyRecord): Promise<void>;
  erase(): Promise<void>;
}

export type RememberedKeyErrorCode =
  'wrong-passphrase' | 'tampered' | 'passphrase-required' | 'passphrase-too-short' | 'unavailable';

/** Why a remembered key could not be stored or opened. */
export class RememberedKeyError extends Error {
  override readonly name = 'RememberedKeyError';
  constructor(
    readonly code: RememberedKeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** What may be shown without opening the record. */
export interface RememberedKeySummary {
  keyId: string;
  username: string;
  mode: RememberMode;
}

function additionalData(keyId: string, mode: RememberMode): Uint8Array<ArrayBuffer> {
  return utf8Encode(`securechannel-remembered-key/v${RECORD_VERSION}/${mode}/${keyId}`);
}

async function derivePassphraseKeys(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<{ key: CryptoKey; check: Uint8Array<ArrayBuffer> }> {
  const material = await crypto.subtle.importKey('raw', utf8Encode(passphrase), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
      material,
      512,
    ),
  );
  const key = await crypto.subtle.importKey('raw', bits.slice(0, 32), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);
  const check = new Uint8Array(await crypto.subtle.digest('SHA-256', bits.slice(32)));
  bits.fill(0);
  return { key, check };
}

export interface RememberOptions {
  /** Seal under a passphrase instead of a device key. */
  passphrase?: string;
  /** PBKDF2 iterations (tests lower it; the product uses PBKDF2_ITERATIONS). */
  iterations?: number;
}

/** Seals `keyFile` and stores it, replacing any record. */
export async function rememberKeyFile(
  storage: RememberedKeyStorage,
  keyFile: KeyFile,
  options: RememberOptions = {},
): Promise<void> {
  const mode: RememberMode = options.passphrase === undefined ? 'device' : 'passphrase';
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plaintext = utf8Encode(serializeKeyFile(keyFile));
  const base = { version: RECORD_VERSION, keyId: keyFile.keyId, username: keyFile.username, iv };
  let record: RememberedKeyRecord;
  if (mode === 'passphrase') {
    const passphrase = options.passphrase ?? '';
    if (passphrase.length < REMEMBER_PASSPHRASE_MIN_LENGTH) {
      throw new RememberedKeyError(
        'passphrase-too-short',
        `The passphrase needs at least ${REMEMBER_PASSPHRASE_MIN_LENGTH} characters`,
      );
    }
    const iterations = options.iterations ?? PBKDF2_ITERATIONS;
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const { key, check } = await derivePassphraseKeys(passphrase, salt, iterations);
    const ciphertext = await seal(key, iv, keyFile.keyId, mode, plaintext);
    record = { ...base, mode, ciphertext, salt, iterations, check };
  } else {
    const wrappingKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const ciphertext = await seal(wrappingKey, iv, keyFile.keyId, mode, plaintext);
    record = { ...base, mode, ciphertext, wrappingKey };
  }
  plaintext.fill(0);
  await storage.write(record);
}

async function seal(
  key: CryptoKey,
  iv: Uint8Array<ArrayBuffer>,
  keyId: string,
  mode: RememberMode,
  plaintext: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: additionalData(keyId, mode) },
    key,
    plaintext,
  );
  return new Uint8Array(sealed);
}

/** The stored record's key id, username and mode, or null when nothing is remembered. */
export async function rememberedKeySummary(
  storage: RememberedKeyStorage,
): Promise<RememberedKeySummary | null> {
  const record = await storage.read();
  if (!record) return null;
  return { keyId: record.keyId, username: record.username, mode: record.mode };
}

const TAMPERED = 'The remembered key on this device is damaged: load your key file again';

/**
 * Opens the stored record: the key file, or null when nothing is remembered. Throws
 * RememberedKeyError: `passphrase-required` (passphrase mode, none given), `wrong-passphrase`,
 * `tampered` (the ciphertext, its labels or the key file inside do not hold together).
 */
export async function openRememberedKey(
  storage: RememberedKeyStorage,
  passphrase?: string,
): Promise<KeyFile | null> {
  const record = await storage.read();
  if (!record) return null;
  if (record.version !== RECORD_VERSION) throw new RememberedKeyError('tampered', TAMPERED);
  let key: CryptoKey;
  if (record.mode === 'passphrase') {
    if (passphrase === undefined) {
      throw new RememberedKeyError('passphrase-required', 'Enter the passphrase of your key');
    }
    if (!record.salt || !record.check || !record.iterations || record.iterations < 1) {
      throw new RememberedKeyError('tampered', TAMPERED);
    }
    const derived = await derivePassphraseKeys(passphrase, record.salt, record.iterations);
    if (!constantTimeEqual(derived.check, record.check)) {
      throw new RememberedKeyError('wrong-passphrase', 'Wrong passphrase');
    }
    key = derived.key;
  } else if (record.mode === 'device' && record.wrappingKey) {
    key = record.wrappingKey;
  } else {
    throw new RememberedKeyError('tampered', TAMPERED);
  }
  let plaintext: Uint8Array;
  try {
    plaintext = new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: record.iv,
          additionalData: additionalData(record.keyId, record.mode),
        },
        key,
        record.ciphertext,
      ),
    );
  } catch {
    throw new RememberedKeyError('tampered', TAMPERED);
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8Decode(plaintext));
  } catch {
    throw new RememberedKeyError('tampered', TAMPERED);
  } finally {
    plaintext.fill(0);
  }
  const parsed = KeyFileSchema.safeParse(value);
  if (!parsed.success || parsed.data.keyId !== record.keyId) {
    throw new RememberedKeyError('tampered', TAMPERED);
  }
  return parsed.data;
}

/** Erases the record (the sealed key file and, in device mode, its wrapping key). */
export function forgetRememberedKey(storage: RememberedKeyStorage): Promise<void> {
  return storage.erase();
}

const DB_NAME = 'securechannel-remembered-key';
const STORE = 'records';
const RECORD_NAME = 'current';

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new RememberedKeyError('unavailable', 'This browser cannot store keys'));
      return;
    }
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () =>
      reject(new RememberedKeyError('unavailable', 'This browser cannot store keys'));
  });
}

function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  return openDatabase().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = act(transaction.objectStore(STORE));
        transaction.oncomplete = () => {
          db.close();
          resolve(request.result as T);
        };
        transaction.onerror = transaction.onabort = () => {
          db.close();
          reject(new RememberedKeyError('unavailable', 'This browser cannot store keys'));
        };
      }),
  );
}

/** The browser's storage: one IndexedDB database holding one record. */
export const indexedDbRememberedKeyStorage: RememberedKeyStorage = {
  async read() {
    const value = await run<unknown>('readonly', (store) => store.get(RECORD_NAME));
    return (value ?? null) as RememberedKeyRecord | null;
  },
  async write(record) {
    await run('readwrite', (store) => store.put(record, RECORD_NAME));
  },
  async erase() {
    await run('readwrite', (store) => store.clear());
  },
};

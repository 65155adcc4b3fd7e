/** An in-memory stand-in for the browser's IndexedDB store of the remembered key. */
import type {
  RememberedKeyRecord,
  RememberedKeyStorage,
} from '../../client/lib/key-file/remembered-key.js';

export function memoryStorage(): RememberedKeyStorage & { record: RememberedKeyRecord | null } {
  const storage = {
    record: null as RememberedKeyRecord | null,
    read: () => Promise.resolve(storage.record),
    write: (record: RememberedKeyRecord) => {
      storage.record = record;
      return Promise.resolve();
    },
    erase: () => {
      storage.record = null;
      return Promise.resolve();
    },
  };
  return storage;
}

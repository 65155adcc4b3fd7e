/**
 * The thread keys this page has opened, in memory only, so a thread's key is unwrapped once per
 * visit rather than on every refresh. A key is looked up by thread id and the server's
 * encryptionKey together, so a thread whose key changed is opened afresh.
 */
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { openThreadKey } from './dm-crypto.js';

export class ThreadKeyring {
  private readonly keys = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly myKeyId: string,
    private readonly keyFile: KeyFile | null,
  ) {}

  /** The thread's key; rejects with ThreadKeyUnavailableError (and is tried again next time). */
  open(thread: Pick<DmThread, 'id' | 'mode' | 'encryptionKey'>): Promise<Uint8Array> {
    const slot = `${thread.id}:${thread.encryptionKey}`;
    let key = this.keys.get(slot);
    if (!key) {
      key = openThreadKey(thread, this.myKeyId, this.keyFile);
      this.keys.set(slot, key);
      key.catch(() => this.keys.delete(slot));
    }
    return key;
  }

  /** Drops a deleted or expired thread's key. */
  forget(threadId: string): void {
    for (const slot of [...this.keys.keys()]) {
      if (slot.startsWith(`${threadId}:`)) this.keys.delete(slot);
    }
  }
}

import { afterEach, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import {
  heldDmKeyFile,
  holdDmKeyFile,
  isHeldForAnotherSession,
  releaseDmKeyFile,
  subscribeDmKeyFile,
} from '../../../../client/features/dm/dm-key-store.js';

describe('the unlocked key file held in memory', () => {
  afterEach(() => releaseDmKeyFile());

  it('is handed out only for the session and key id it was loaded under', async () => {
    const key = await createKeyFile({ username: 'bob' });
    holdDmKeyFile(key, 'token-1');
    expect(heldDmKeyFile('token-1', key.keyId)).toBe(key);
    expect(heldDmKeyFile('token-2', key.keyId)).toBeNull();
    expect(heldDmKeyFile('token-1', 'SCK' + '0'.repeat(32))).toBeNull();
    expect(heldDmKeyFile(null, key.keyId)).toBeNull();
    expect(isHeldForAnotherSession('token-1')).toBe(false);
    expect(isHeldForAnotherSession('token-2')).toBe(true);
    expect(isHeldForAnotherSession(null)).toBe(true);
  });

  it('tells subscribers when it changes and forgets on release', async () => {
    const key = await createKeyFile({ username: 'bob' });
    let calls = 0;
    const unsubscribe = subscribeDmKeyFile(() => {
      calls += 1;
    });
    holdDmKeyFile(key, 'token-1');
    releaseDmKeyFile();
    releaseDmKeyFile();
    unsubscribe();
    expect(calls).toBe(2);
    expect(heldDmKeyFile('token-1', key.keyId)).toBeNull();
  });
});

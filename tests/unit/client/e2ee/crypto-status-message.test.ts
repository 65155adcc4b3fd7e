/** The status bar's crypto status message clears 10 s after it was written (spec 000 §9). */
import { describe, expect, it } from 'vitest';
import { CryptoLog, currentStatusMessage } from '../../../../client/features/e2ee/crypto-log.js';

describe('currentStatusMessage', () => {
  it('shows the newest entry and clears it 10 s after it was written', () => {
    let clock = 1_000_000;
    const log = new CryptoLog(() => clock);
    expect(currentStatusMessage(log.getEntries(), clock)).toBeNull();
    log.info('Session keys generated');
    clock += 4_000;
    log.success('Sender keys received from Ghost2');
    expect(currentStatusMessage(log.getEntries(), clock)?.text).toBe(
      'Sender keys received from Ghost2',
    );
    expect(currentStatusMessage(log.getEntries(), clock + 9_999)?.text).toBe(
      'Sender keys received from Ghost2',
    );
    expect(currentStatusMessage(log.getEntries(), clock + 10_000)).toBeNull();
  });
});

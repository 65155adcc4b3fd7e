/**
 * This tab's messages on their way (issue 35): only the echo acknowledges one; a `send_message`
 * error refuses the oldest; a lost connection is settled by the next join's history.
 */
import { describe, expect, it } from 'vitest';
import {
  OutgoingLedger,
  type InFlightSend,
} from '../../../../client/features/rooms/outgoing-ledger.js';

function send(id: string): InFlightSend {
  return { id, payload: { v: 1, text: `text of ${id}` }, isStealthMode: false };
}
const wire = (cipher: string) => ({ content: '', encryptedContent: cipher });

describe('OutgoingLedger', () => {
  it('an echo with the same ciphertext acknowledges that message only', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('a'), wire('AAA'));
    ledger.sent(send('b'), wire('BBB'));
    expect(ledger.echoed(wire('CCC'))).toBe(false);
    expect(ledger.echoed(wire('BBB'))).toBe(true);
    expect(ledger.size).toBe(1);
    expect(ledger.refused()?.id).toBe('a');
  });

  it('a refusal takes the oldest message still on its way, in order, and nothing when none is', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('a'), wire('AAA'));
    ledger.sent(send('b'), wire('BBB'));
    expect(ledger.refused()).toEqual(send('a'));
    expect(ledger.refused()).toEqual(send('b'));
    expect(ledger.refused()).toBeNull();
  });

  it('tells a flagged plaintext message from a ciphertext with the same text', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('plain'), { content: 'AAA', encryptedContent: null });
    expect(ledger.echoed(wire('AAA'))).toBe(false);
    expect(ledger.echoed({ content: 'AAA', encryptedContent: null })).toBe(true);
  });

  it('after a lost connection, gives back as not sent only what the history does not hold', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('relayed'), wire('AAA'));
    ledger.sent(send('lost'), wire('BBB'));
    expect(ledger.settle([wire('XXX'), wire('AAA')])).toEqual([send('lost')]);
    expect(ledger.size).toBe(0);
  });
});

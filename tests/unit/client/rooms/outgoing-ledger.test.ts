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
    expect(ledger.echoed(wire('CCC'))).toEqual({ relayed: null, refused: null });
    expect(ledger.echoed(wire('BBB'))).toEqual({ relayed: 'b', refused: null });
    expect(ledger.size).toBe(1);
    expect(ledger.refused('no relay')?.id).toBe('a');
  });

  it('a refusal takes the oldest message still on its way, in order, and nothing when none is', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('a'), wire('AAA'));
    ledger.sent(send('b'), wire('BBB'));
    expect(ledger.refused('no relay')).toEqual(send('a'));
    expect(ledger.refused('no relay')).toEqual(send('b'));
    expect(ledger.refused('no relay')).toBeNull();
  });

  it('tells a flagged plaintext message from a ciphertext with the same text', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('plain'), { content: 'AAA', encryptedContent: null });
    expect(ledger.echoed(wire('AAA')).relayed).toBeNull();
    expect(ledger.echoed({ content: 'AAA', encryptedContent: null }).relayed).toBe('plain');
  });

  it('when the echo of a message taken as refused arrives, the refusal moves to the next one', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('a'), wire('AAA'));
    ledger.sent(send('b'), wire('BBB'));
    // b's refusal overtook a's echo: a is taken as refused first.
    expect(ledger.refused('no relay')?.id).toBe('a');
    expect(ledger.echoed(wire('AAA'))).toEqual({
      relayed: 'a',
      refused: { send: send('b'), reason: 'no relay' },
    });
    expect(ledger.size).toBe(0);
    // A message sent again is forgotten: a late echo of its old form settles nothing.
    ledger.forget('b');
    expect(ledger.echoed(wire('BBB'))).toEqual({ relayed: null, refused: null });
  });

  it('after a lost connection, gives back as not sent only what the history does not hold', () => {
    const ledger = new OutgoingLedger();
    ledger.sent(send('relayed'), wire('AAA'));
    ledger.sent(send('lost'), wire('BBB'));
    expect(ledger.settle([wire('XXX'), wire('AAA')])).toEqual([send('lost')]);
    expect(ledger.size).toBe(0);
  });
});

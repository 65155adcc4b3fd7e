/**
 * Browser-side cryptography, measured in this process (Node's WebCrypto and the same @noble code
 * the browser runs): encrypt + decrypt cost per message type, and the time a 50-member room takes
 * to finish key agreement (every member holding every other member's sender keys), driven
 * through the client's own key manager over an in-memory relay that behaves like the server's.
 */
import { performance } from 'node:perf_hooks';
import {
  ENCRYPTION_TYPE_SEQUENCE,
  decryptMessage,
  encryptMessage,
} from '../../../shared/crypto/room/index.js';
import {
  makeRoomKeys,
  readerContext,
  senderContext,
} from '../../unit/shared/crypto/room/room-test-kit.js';
import { TestClock, TestRelay } from '../../unit/client/e2ee/e2ee-test-kit.js';
import type { BenchContext } from '../context.js';
import { fixed, type ScenarioReport } from '../report.js';

const TEXT = 'The package is at drop point seven. Burn this after reading.';

async function perTypeCost(iterations: number) {
  const keys = await makeRoomKeys('bench keys');
  const rows: { type: string; meanUs: number; p99Us: number }[] = [];
  for (const type of ENCRYPTION_TYPE_SEQUENCE) {
    const sender = senderContext(keys);
    const reader = readerContext(keys);
    const samples: number[] = [];
    for (let i = 0; i < iterations + 5; i += 1) {
      const started = performance.now();
      const envelope = await encryptMessage(type, TEXT, sender);
      const text = await decryptMessage(type, envelope, reader);
      const elapsed = (performance.now() - started) * 1000;
      if (text !== TEXT) throw new Error(`${type} did not round-trip`);
      if (i >= 5) samples.push(elapsed);
    }
    samples.sort((a, b) => a - b);
    rows.push({
      type,
      meanUs: samples.reduce((sum, value) => sum + value, 0) / samples.length,
      p99Us: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]!,
    });
  }
  return rows;
}

async function keyAgreement(members: number) {
  const relay = new TestRelay(new TestClock());
  const started = performance.now();
  for (let i = 0; i < members; i += 1) await relay.join(`Agent${i + 1}`);
  // Agreement is reached when the newest member's message is encrypted and the first member
  // reads it; frames cause frames, so settle until then (bounded).
  const all = [...relay.members.values()];
  let state = 'not reached';
  let rounds = 0;
  for (; rounds < 30 && state !== 'decrypted'; rounds += 1) {
    await relay.settle();
    const message = await relay.send(all[all.length - 1]!, 'agreement check');
    if (message.encryptionType === 'PLAINTEXT') continue;
    state = (await all[0]!.cipher.decrypt(message)).state;
  }
  const agreedMs = performance.now() - started;
  return { members, agreedMs, senderKeyFrames: relay.senderKeyFrames.length, check: state, rounds };
}

export async function runCrypto(context: BenchContext): Promise<ScenarioReport> {
  const iterations = context.isQuick ? 20 : 200;
  const members = context.isQuick ? 10 : 50;
  const costs = await perTypeCost(iterations);
  const agreement = await keyAgreement(members);
  return {
    scenario: 'crypto',
    tables: [
      {
        title: `Encrypt + decrypt of one ${TEXT.length}-character message, per type (${iterations} runs each, in-process)`,
        columns: ['type', 'mean µs', 'p99 µs'],
        rows: costs.map((row) => [row.type, fixed(row.meanUs, 0), fixed(row.p99Us, 0)]),
      },
      {
        title: `Key agreement of a ${members}-member room (members join one after another)`,
        columns: ['members', 'total ms', 'sender-key frames', 'check'],
        rows: [
          [
            String(agreement.members),
            fixed(agreement.agreedMs, 0),
            String(agreement.senderKeyFrames),
            agreement.check,
          ],
        ],
      },
    ],
    checks: [
      {
        scenario: 'crypto',
        name: `${members}-member room reaches key agreement`,
        target: 'the last member can be read by the first',
        actual: agreement.check,
        pass: agreement.check === 'decrypted',
      },
    ],
    notes: [
      'RSA-OAEP costs one RSA-2048 decryption for the reader; its encryption cost grows with the room (one wrap per member).',
      'Key agreement is measured in one process: every member’s key manager does its own work, so the figure is the sum of all members’ CPU, an upper bound on what one browser waits.',
    ],
    data: { costs, agreement },
  };
}

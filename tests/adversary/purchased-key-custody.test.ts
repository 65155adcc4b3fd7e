/**
 * Who holds a purchased private key (issue 32; docs/decisions.md "Key purchase"). Until issue 32
 * the server made the buyer's key file and kept it, sealed, until its download: an operator or an
 * intruder on the server could keep copies. Now the buyer's browser makes the key and sends only
 * its public part with a proof of possession.
 *
 * Eve owns the server after the purchase: she reads every answer the buyer received and every row
 * of every table. She must find none of the buyer's private keys (ML-DSA-65, ECDSA P-256, the DM
 * key's ML-KEM-768 and X25519 parts) in any form: the byte list of the key file, hex (bytea) or
 * base64. And a buyer who sends a private key by mistake is refused, with nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64, numbersToBytes, toHex } from '../../shared/crypto/bytes.js';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import type { GeneratePaymentResponse } from '../../shared/protocol/http/payments.js';
import { login } from '../support/keys.js';
import { buyerName, makeBuyerKey, purchaseKeyBody, submitBuyerKey } from '../support/purchase.js';
import { startServer, type TestServer } from '../support/server.js';

const START = Date.parse('2026-05-01T08:00:00.000Z');

/** The P-256 private scalar inside the PKCS#8 encoding: the 32 bytes after OCTET STRING (04 20). */
function ecdsaScalar(pkcs8: readonly number[]): number[] {
  for (let i = 0; i + 34 <= pkcs8.length; i += 1) {
    if (pkcs8[i] === 0x04 && pkcs8[i + 1] === 0x20) return pkcs8.slice(i + 2, i + 34);
  }
  throw new Error('no private scalar in the PKCS#8 key');
}

/**
 * The secret parts of each private key (not what they share with the public key: ML-DSA's ρ,
 * the public point inside PKCS#8, the ML-KEM encapsulation key), each written every way a
 * server could write it down: the key file's byte list, hex (bytea) and base64.
 */
function privateForms(keyFile: KeyFile): string[] {
  const { dilithiumPrivateKey, ecdsaPrivateKey, encryptionPrivateKey } = keyFile;
  if (!dilithiumPrivateKey || !ecdsaPrivateKey || !encryptionPrivateKey) {
    throw new Error('the buyer key lacks a private key');
  }
  const secrets = [
    dilithiumPrivateKey.slice(128, 160), // s1, after ρ, K and tr
    dilithiumPrivateKey.slice(32, 64), // K
    ecdsaScalar(ecdsaPrivateKey),
    encryptionPrivateKey.kem.slice(0, 32), // the decryption key's first coefficients
    encryptionPrivateKey.kem.slice(-32), // z
    encryptionPrivateKey.x25519,
  ];
  return secrets.flatMap((secret) => {
    const bytes = numbersToBytes(secret.slice(0, 24));
    const head = secret.slice(0, 24);
    return [head.join(','), head.join(', '), toHex(bytes), bytesToBase64(bytes).slice(0, 28)];
  });
}

async function dumpEveryTable(server: TestServer): Promise<string> {
  const tables = await server.database.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
  );
  let text = '';
  for (const { name } of tables) {
    const rows = await server.database.query<{ row: unknown }>(
      `SELECT row_to_json(t)::text AS row FROM "${name}" t`,
    );
    text += rows.map((row) => String(row.row)).join('\n');
  }
  return text;
}

describe('the custody of a purchased key', () => {
  let server: TestServer;
  let clock = START;
  const post = (path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startServer({
      env: { SANDBOX_CONFIRMATION_SECONDS: '1' },
      deps: { now: () => clock },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('leaves no private key material in any answer, any stored row or the log', async () => {
    const answers: string[] = [];
    const created = await post('/api/crypto/generate-payment', {
      currency: 'BTC',
      minAmountUsd: 1000,
      username: buyerName('Morpheus'),
    });
    const createdText = await created.text();
    answers.push(createdText);
    expect(created.status).toBe(200);
    const payment = JSON.parse(createdText) as GeneratePaymentResponse;

    // A buyer's page that sends the whole file (private keys included) is refused; nothing kept.
    const careless = await makeBuyerKey(payment.username, payment.tier, new Date(clock));
    const leaked = await post('/api/crypto/purchase-key', {
      ...(await purchaseKeyBody(payment.paymentId, careless, payment.keyChallenge)),
      publicKey: careless,
    });
    answers.push(await leaked.text());
    expect(leaked.status).toBe(400);
    const afterLeak = await dumpEveryTable(server);
    for (const form of privateForms(careless)) expect(afterLeak).not.toContain(form);

    const keyFile = await submitBuyerKey(server.baseUrl, payment, new Date(clock));
    // The detector finds the secrets where they are: in the key file's own text forms.
    const own = `${JSON.stringify(keyFile)}\n${serializeKeyFile(keyFile)}`;
    const listForms = privateForms(keyFile).filter((form) => form.includes(','));
    expect(listForms.filter((form) => own.includes(form)).length).toBeGreaterThanOrEqual(6);
    await post('/api/crypto/sandbox/pay', { paymentId: payment.paymentId, amount: payment.amount });
    clock += 60_000;
    const status = await fetch(`${server.baseUrl}/api/crypto/payment-status/${payment.paymentId}`);
    answers.push(await status.text());
    const generated = await post('/api/crypto/generate-key', { paymentId: payment.paymentId });
    answers.push(await generated.text());
    expect(generated.status).toBe(200);
    const ready = await fetch(`${server.baseUrl}/api/crypto/payment-status/${payment.paymentId}`);
    const readyText = await ready.text();
    answers.push(readyText);
    expect(JSON.parse(readyText)).toMatchObject({
      status: 'ready',
      receipt: { keyId: keyFile.keyId, username: payment.username },
    });
    // The server has no key file to give: the old download route is gone.
    const download = await fetch(`${server.baseUrl}/api/crypto/download/${payment.paymentId}`);
    answers.push(await download.text());
    expect(download.status).toBe(404);

    // The key is registered and works, though the server never saw its private parts.
    expect((await login(server.baseUrl, keyFile)).status).toBe(200);

    const everything = [answers.join('\n'), await dumpEveryTable(server), server.logs.text()].join(
      '\n',
    );
    expect(everything).toContain(keyFile.keyId);
    for (const form of privateForms(keyFile)) expect(everything).not.toContain(form);
    expect(everything).not.toMatch(/PrivateKey/);
  });
});

// Worker thread: verifies both signatures of a login (ML-DSA-65, about 2 ms of CPU, and ECDSA
// P-256) off the main event loop, so a burst of logins never stalls chat delivery. Plain
// JavaScript so it loads without a TypeScript loader; the checks mirror shared/crypto/ml-dsa.ts
// (verifyMlDsa) and shared/crypto/ecdsa-p256.ts (verifyEcdsa: SHA-256, raw r‖s signature, raw
// uncompressed public point).
import { Buffer } from 'node:buffer';
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';

const ML_DSA_SIGNATURE_BYTES = 3309;
const ML_DSA_PUBLIC_KEY_BYTES = 1952;
const ECDSA_SIGNATURE_BYTES = 64;
const ECDSA_PUBLIC_KEY_BYTES = 65;

// Chat delivery comes before logins: on Linux this thread lowers its own scheduling priority by
// ten nice steps, so when the CPU is contended the event loop runs first and verifications take
// what is left (on an idle core they run at full speed). Elsewhere, or if the kernel refuses, the
// worker keeps the process's priority.
const LOWER_PRIORITY_BY = 10;
try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(threadId) && threadId > 0) {
    setPriority(threadId, Math.min(19, getPriority(threadId) + LOWER_PRIORITY_BY));
  }
} catch {
  // Not Linux, or no /proc: keep the default priority.
}

const isBytes = (value, length) => value instanceof Uint8Array && value.length === length;

function verifyMlDsa(signature, message, publicKey) {
  if (!isBytes(signature, ML_DSA_SIGNATURE_BYTES)) return false;
  if (!isBytes(publicKey, ML_DSA_PUBLIC_KEY_BYTES)) return false;
  try {
    return ml_dsa65.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

function verifyEcdsa(signature, message, publicKey) {
  if (!isBytes(signature, ECDSA_SIGNATURE_BYTES)) return false;
  if (!isBytes(publicKey, ECDSA_PUBLIC_KEY_BYTES) || publicKey[0] !== 0x04) return false;
  try {
    // Importing checks that the point lies on the curve.
    const key = createPublicKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: Buffer.from(publicKey.subarray(1, 33)).toString('base64url'),
        y: Buffer.from(publicKey.subarray(33)).toString('base64url'),
      },
    });
    return verifySignature('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

parentPort.on('message', (job) => {
  const { message } = job;
  const valid =
    message instanceof Uint8Array &&
    verifyEcdsa(job.ecdsaSignature, message, job.ecdsaPublicKey) &&
    verifyMlDsa(job.mlDsaSignature, message, job.mlDsaPublicKey);
  parentPort.postMessage({ id: job.id, valid });
});

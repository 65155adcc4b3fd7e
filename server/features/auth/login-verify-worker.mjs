// Worker thread: verifies both signatures of a login (ML-DSA-65 through liboqs in WebAssembly,
// about 0.12 ms of CPU, or @noble's 2 ms when liboqs cannot load; ECDSA P-256 through OpenSSL)
// off the main event loop, so a burst of logins never stalls chat delivery. Plain JavaScript so it
// loads without a TypeScript loader; the checks mirror shared/crypto/ml-dsa.ts (verifyMlDsa) and
// shared/crypto/ecdsa-p256.ts (verifyEcdsa: SHA-256, raw r‖s signature, raw uncompressed public
// point). Its first message tells the pool which ML-DSA implementation runs.
import { Buffer } from 'node:buffer';
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { loadMlDsaVerifier } from './ml-dsa-verifier.mjs';

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

// Imported ECDSA keys by their raw point: a key holder logs in again and again, and importing
// (which checks that the point lies on the curve) costs about as much as the verification.
const ECDSA_KEY_CACHE_SIZE = 1024;
const ecdsaKeys = new Map();

function ecdsaKeyFor(publicKey) {
  const id = Buffer.from(publicKey).toString('base64');
  let key = ecdsaKeys.get(id);
  if (key) return key;
  key = createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: Buffer.from(publicKey.subarray(1, 33)).toString('base64url'),
      y: Buffer.from(publicKey.subarray(33)).toString('base64url'),
    },
  });
  if (ecdsaKeys.size >= ECDSA_KEY_CACHE_SIZE) ecdsaKeys.delete(ecdsaKeys.keys().next().value);
  ecdsaKeys.set(id, key);
  return key;
}

function verifyEcdsa(signature, message, publicKey) {
  if (!isBytes(signature, ECDSA_SIGNATURE_BYTES)) return false;
  if (!isBytes(publicKey, ECDSA_PUBLIC_KEY_BYTES) || publicKey[0] !== 0x04) return false;
  try {
    const key = ecdsaKeyFor(publicKey);
    return verifySignature('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

// Jobs that arrive while the implementation loads wait for it, in order.
const mlDsa = loadMlDsaVerifier().then((verifier) => {
  parentPort.postMessage({
    type: 'ready',
    implementation: verifier.implementation,
    fallbackReason: verifier.fallbackReason,
  });
  return verifier;
});

// A batch of jobs per message (verify-pool.ts); one answer per job, in the batch's order, in one
// message.
parentPort.on('message', ({ jobs }) => {
  if (!Array.isArray(jobs)) return;
  void mlDsa.then((verifier) => {
    const results = jobs.map((job) => {
      const { message } = job;
      const valid =
        message instanceof Uint8Array &&
        verifyEcdsa(job.ecdsaSignature, message, job.ecdsaPublicKey) &&
        verifier.verify(job.mlDsaSignature, message, job.mlDsaPublicKey);
      return { id: job.id, valid };
    });
    parentPort.postMessage({ results });
  });
});

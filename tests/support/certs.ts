/** Self-signed test certificates made with openssl, and their SHA-256 fingerprints. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface TestCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the certificate's DER, lowercase hex, as openssl computes it. */
  fingerprint: string;
}

/** A one-day P-256 certificate for `commonName`, written as cert.pem and key.pem into `dir`. */
export function makeSelfSignedCertificate(dir: string, commonName: string): TestCertificate {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      `/CN=${commonName}`,
    ],
    { stdio: 'ignore' },
  );
  const output = execFileSync('openssl', [
    'x509',
    '-in',
    cert,
    '-noout',
    '-fingerprint',
    '-sha256',
  ]).toString();
  const fingerprint = (output.split('=')[1] ?? '').trim().replaceAll(':', '').toLowerCase();
  return { cert, key, fingerprint };
}

/**
 * The server's ECDH P-256 key pairs for `/api/pfs/exchange` (spec 000 §9): a new pair every 30
 * minutes, the previous one kept for a 10-minute grace period. They protect nothing the server
 * cannot see (the server holds the private key); they let the browser check a live key exchange.
 */
import { createHmac, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { PFS_GRACE_PERIOD_MS, PFS_KEY_ROTATION_MS } from '../../../shared/constants.js';
import { AppError } from '../../errors.js';

interface ServerKey {
  keyId: string;
  ecdh: ReturnType<typeof createECDH>;
  createdAt: number;
}

export const PFS_TEXT = { exchangeFailed: 'PFS key exchange failed' } as const;

export class PfsKeyRing {
  private current: ServerKey | null = null;
  private previous: ServerKey | null = null;

  constructor(private readonly now: () => number) {}

  private keyFor(now: number): ServerKey {
    if (!this.current || now - this.current.createdAt >= PFS_KEY_ROTATION_MS) {
      this.previous = this.current;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      this.current = { keyId: `pfs_${randomBytes(8).toString('hex')}`, ecdh, createdAt: now };
    }
    if (
      this.previous &&
      now - this.previous.createdAt >= PFS_KEY_ROTATION_MS + PFS_GRACE_PERIOD_MS
    ) {
      this.previous = null;
    }
    return this.current;
  }

  /** Live key ids: the current one and, during its grace period, the previous one. */
  liveKeyIds(): string[] {
    this.keyFor(this.now());
    return [this.current, this.previous]
      .filter((key): key is ServerKey => key !== null)
      .map((key) => key.keyId);
  }

  exchange(clientPublicKeyBase64: string, clientKeyId: string) {
    const now = this.now();
    const key = this.keyFor(now);
    const clientPoint = Buffer.from(clientPublicKeyBase64, 'base64');
    let secret: Buffer;
    try {
      if (clientPoint.length !== 65 || clientPoint[0] !== 4)
        throw new Error('not an uncompressed point');
      secret = key.ecdh.computeSecret(clientPoint);
    } catch (error) {
      throw new AppError('PFS_FAILED', 400, PFS_TEXT.exchangeFailed, { cause: error });
    }
    const confirmKey = Buffer.from(
      hkdfSync('sha256', secret, Buffer.alloc(0), 'securechannel/v1/pfs/confirm', 32),
    );
    secret.fill(0);
    const confirmation = createHmac('sha256', confirmKey)
      .update(clientKeyId, 'utf8')
      .digest('base64');
    return {
      serverPublicKey: key.ecdh.getPublicKey().toString('base64'),
      serverKeyId: key.keyId,
      expiresAt: new Date(key.createdAt + PFS_KEY_ROTATION_MS).toISOString(),
      confirmation,
    };
  }
}

/**
 * The key authentication page (spec 001 §2): upload a .sck/.bin key, see its username, level,
 * key id, fingerprint and security features, then 'Authenticate & Enter'. "Remember this key on
 * this device" (off by default) seals the key file into this browser so a reload keeps the
 * identity (docs/crypto.md "Remembered key"), optionally under a passphrase.
 */
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { ML_DSA_65_SIGNATURE_BYTES } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { clearAccessMode } from '../../lib/session/access-mode.js';
import { toast } from '../../ui/use-toast.js';
import { readKeyFile } from '../../lib/key-file/read-key-file.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { keyPageLoginFailureText } from './login-failure-text.js';
import { RememberKeyOption, useRememberKey } from '../../ui/RememberKeyOption.js';

const FEATURES = [
  `ML-DSA-65 post-quantum signature (FIPS 204, ${ML_DSA_65_SIGNATURE_BYTES}-byte signatures)`,
  'ECDSA P-256 classical signature, both checked at login',
  'Single-use challenge, valid two minutes',
  'Private keys never leave this browser',
];

export function KeyAuthPage() {
  const { authenticate, isAuthenticating } = useAuth();
  const [, navigate] = useLocation();
  const [keyFile, setKeyFile] = useState<KeyFile | null>(null);
  const [isReading, setReading] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const remember = useRememberKey();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setReading(true);
    const result = await readKeyFile(file);
    setReading(false);
    if (!result.ok) {
      setKeyFile(null);
      toast({ title: result.title, description: result.description, variant: 'destructive' });
      return;
    }
    setKeyFile(result.keyFile);
    toast({
      title: TEXT.keyValidated,
      description: `${result.keyFile.username} · ${result.keyFile.permissions.level}`,
      variant: 'success',
    });
  };

  const enter = async () => {
    if (!keyFile) return;
    try {
      const user = await authenticate(keyFile, remember.choice);
      remember.setPassphrase('');
      toast({
        title: TEXT.authenticationSuccessful,
        description: `Welcome back, ${user.username}`,
        variant: 'success',
      });
      navigate('/');
    } catch (error) {
      const description = keyPageLoginFailureText(error);
      toast({ title: TEXT.authenticationFailed, description, variant: 'destructive' });
    }
  };

  const backToLanding = () => {
    clearAccessMode();
    navigate('/landing');
  };

  const buttonClass =
    'rounded border px-3 py-2 text-xs tracking-widest disabled:cursor-not-allowed disabled:opacity-50';
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-4 text-fg">
      <section
        className="w-full max-w-xl rounded border border-border bg-surface p-6"
        aria-labelledby="key-auth-title"
      >
        <h1 id="key-auth-title" className="mb-1 text-lg font-bold tracking-widest text-primary">
          KEY AUTHENTICATION
        </h1>
        <p className="mb-5 text-xs text-muted">
          Load your SecureChannel key file (.sck or .bin) to sign in.
        </p>

        {!keyFile ? (
          <div className="mb-5">
            <label
              htmlFor="key-auth-file"
              className="mb-2 block text-xs tracking-widest text-muted"
            >
              KEY FILE
            </label>
            <input
              id="key-auth-file"
              ref={inputRef}
              type="file"
              accept=".sck,.bin"
              disabled={isReading}
              onChange={(event) => void choose(event.target.files?.[0])}
              className="block w-full text-xs text-fg file:mr-3 file:rounded file:border file:border-border file:bg-background file:px-3 file:py-1.5 file:text-primary"
              data-testid="key-auth-file"
            />
          </div>
        ) : (
          <dl
            className="mb-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-xs"
            data-testid="key-details"
          >
            <dt className="text-muted">USERNAME</dt>
            <dd className="text-primary" data-testid="key-username">
              {keyFile.username}
            </dd>
            <dt className="text-muted">LEVEL</dt>
            <dd>
              <span
                className={`rounded border px-1.5 py-0.5 tracking-widest ${
                  keyFile.permissions.level === 'admin'
                    ? 'border-danger text-danger'
                    : 'border-border text-accent'
                }`}
                data-testid="key-level"
              >
                {keyFile.permissions.level.toUpperCase()}
              </span>
            </dd>
            <dt className="text-muted">KEY ID</dt>
            <dd className="break-all">{keyFile.keyId}</dd>
            <dt className="text-muted">FINGERPRINT</dt>
            <dd className="break-all font-mono">{keyFile.fingerprint}</dd>
            <dt className="text-muted">EXPIRES</dt>
            <dd>{keyFile.expires ? new Date(keyFile.expires).toUTCString() : 'NEVER'}</dd>
            <dt className="text-muted">SECURITY</dt>
            <dd>
              <ul className="list-inside list-disc text-fg">
                {FEATURES.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </dd>
          </dl>
        )}

        {keyFile ? (
          <div className="mb-5">
            <RememberKeyOption state={remember} />
          </div>
        ) : null}

        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={`${buttonClass} border-primary text-primary hover:bg-primary/10`}
            disabled={!keyFile || isAuthenticating || remember.isInvalid}
            onClick={() => void enter()}
          >
            {isAuthenticating ? 'AUTHENTICATING...' : 'Authenticate & Enter'}
          </button>
          <button
            type="button"
            className={`${buttonClass} border-border hover:bg-primary/10`}
            disabled={!keyFile || isAuthenticating}
            onClick={() => setKeyFile(null)}
          >
            Upload Different Key
          </button>
          <button
            type="button"
            className={`${buttonClass} border-border hover:bg-primary/10`}
            onClick={backToLanding}
          >
            Back to Landing
          </button>
        </div>
      </section>
    </main>
  );
}

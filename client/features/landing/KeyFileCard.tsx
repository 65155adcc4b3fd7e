import { TEXT } from '../../../shared/protocol/errors.js';
import { useId, useRef, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Bracketed } from './Bracketed.js';
import { CardBar } from './CardBar.js';
import { FeatureBullet } from './FeatureBullet.js';
import { BUTTON_PRIMARY, BUTTON_SECONDARY, PANEL } from '../../ui/landing-styles.js';
import { type LandingKeyUpload } from './use-landing-key-upload.js';
import { KEY_FILE_ACCEPT } from '../../lib/key-file/key-file-name.js';
import { RememberKeyOption, useRememberKey } from '../../ui/RememberKeyOption.js';

/** The AUTHENTICATED ACCESS card (spec 001 §2): key-file input, AUTHENTICATE, GET A KEY. */
export function KeyFileCard({ upload }: { upload: LandingKeyUpload }) {
  const inputId = useId();
  const statusId = useId();
  const headingId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const remember = useRememberKey();
  const { keyData, error, isBusy, selectFile, authenticate } = upload;

  const onFileChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const accepted = await selectFile(event.target.files?.[0] ?? null);
    // A refused file is cleared from the input so that choosing it again, fixed, fires a change.
    if (!accepted && inputRef.current) inputRef.current.value = '';
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (remember.isInvalid) return;
    void authenticate(remember.choice);
  };

  return (
    <article aria-labelledby={headingId} className={`${PANEL} flex flex-col`}>
      <CardBar index="02" state={keyData ? 'KEY LOADED' : 'KEY REQUIRED'} />
      <form onSubmit={onSubmit} className="flex flex-1 flex-col gap-5 p-5 sm:p-6">
        <h3 id={headingId} className="text-base font-bold uppercase tracking-[0.2em] text-primary">
          {TEXT.authenticatedAccess}
        </h3>
        <p className="text-sm leading-relaxed text-fg">
          Log in with your key file. The server sends a one-time challenge, and this browser signs
          it with both of the key&apos;s signing keys: ML-DSA-65 and ECDSA P-256.
        </p>
        <ul className="space-y-1.5 text-sm text-fg">
          <FeatureBullet>End-to-end encrypted direct messages</FeatureBullet>
          <FeatureBullet>Every room, without access codes</FeatureBullet>
          <FeatureBullet>Quantum Pong, and admin tools for admin keys</FeatureBullet>
        </ul>

        <div className="mt-auto space-y-2">
          <label
            htmlFor={inputId}
            className="block text-xs font-bold uppercase tracking-[0.2em] text-muted"
          >
            Key file (.sck / .bin)
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept={KEY_FILE_ACCEPT}
            onChange={(event) => void onFileChange(event)}
            disabled={isBusy}
            aria-describedby={statusId}
            aria-invalid={error !== null}
            data-testid="landing-key-file-input"
            className="block w-full cursor-pointer border border-dashed border-border bg-background p-2 text-xs text-fg file:mr-3 file:cursor-pointer file:border file:border-primary file:bg-primary/10 file:px-3 file:py-1.5 file:font-mono file:text-xs file:font-bold file:uppercase file:tracking-widest file:text-primary hover:border-primary disabled:cursor-wait"
          />
          <KeyStatus id={statusId} upload={upload} />
        </div>

        {keyData !== null ? <RememberKeyOption state={remember} /> : null}

        <div className="flex flex-col gap-3 sm:flex-row">
          <button
            type="submit"
            disabled={keyData === null || isBusy || remember.isInvalid}
            data-testid="landing-authenticate"
            className={`${BUTTON_PRIMARY} sm:flex-1`}
          >
            <Bracketed>{isBusy ? 'WORKING...' : TEXT.authenticate}</Bracketed>
          </button>
          <Link href="/get-key" data-testid="landing-get-key" className={BUTTON_SECONDARY}>
            <Bracketed>{TEXT.getAKey}</Bracketed>
          </Link>
        </div>
      </form>
    </article>
  );
}

/** What the card knows about the chosen key, read out politely as it changes. */
function KeyStatus({ id, upload }: { id: string; upload: LandingKeyUpload }) {
  const { keyData, error, isBusy } = upload;
  let content;
  if (isBusy) {
    content = <span className="text-muted">&gt; READING KEY FILE...</span>;
  } else if (error !== null) {
    content = <span className="text-danger">&gt; {error}</span>;
  } else if (keyData !== null) {
    content = (
      <span className="text-primary">
        &gt; KEY LOADED: <span className="text-fg">{keyData.username}</span>{' '}
        <span className="break-all text-muted">({keyData.keyId})</span>
      </span>
    );
  } else {
    content = <span className="text-muted">&gt; NO KEY FILE SELECTED</span>;
  }
  return (
    <p id={id} aria-live="polite" data-testid="landing-key-status" className="min-h-5 text-xs">
      {content}
    </p>
  );
}

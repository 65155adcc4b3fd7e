/**
 * 'UNLOCK YOUR CONVERSATIONS': after a reload this tab no longer holds the key file, and
 * end-to-end threads cannot be opened without its private encryption key. The key file is read
 * and checked here (readKeyFile), must belong to the signed-in key, and is then held in this
 * tab's memory only (dm-key-store.ts), and handed to the auth context, so the room identity is
 * signed again as well.
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { readKeyFile } from '../../lib/key-file/read-key-file.js';
import { KEY_FILE_ACCEPT } from '../../lib/key-file/validate-key-upload.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { holdDmKeyFile } from './dm-key-store.js';

export interface UnlockConversationsProps {
  keyId: string;
  sessionToken: string;
}

export function UnlockConversations({ keyId, sessionToken }: UnlockConversationsProps) {
  const ids = useId();
  const { loadKeyFile } = useAuth();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<{ title: string; description: string } | null>(null);
  const [isReading, setIsReading] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (!file) return;
    setIsReading(true);
    setError(null);
    const result = await readKeyFile(file);
    setIsReading(false);
    if (!result.ok) {
      setError({ title: result.title, description: result.description });
    } else if (result.keyFile.keyId !== keyId) {
      setError({ title: TEXT.uploadFailed, description: TEXT.dmWrongKeyFile });
    } else {
      holdDmKeyFile(result.keyFile, sessionToken);
      try {
        loadKeyFile(result.keyFile);
      } catch {
        // The session changed meanwhile: the DM screen holds it for its own session only.
      }
      return;
    }
    // A refused file is cleared so that choosing it again fires a change.
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <section
      aria-labelledby={`${ids}-title`}
      data-testid="dm-unlock"
      className="sc-panel mx-auto w-full max-w-xl"
    >
      <div className="flex items-center justify-between border-b border-border px-4 py-2 text-xs tracking-[0.25em] text-muted">
        <span>ROOT@SECURECHANNEL:~/DM</span>
        <span className="text-warning">LOCKED</span>
      </div>
      <div className="space-y-4 p-5 sm:p-6">
        <p aria-hidden="true" className="text-3xl text-warning">
          [■]
        </p>
        <h2
          id={`${ids}-title`}
          className="sc-glow text-base font-bold tracking-[0.2em] text-primary sm:text-lg"
        >
          UNLOCK YOUR CONVERSATIONS
        </h2>
        <p className="text-sm leading-relaxed text-fg">
          Your conversations are end-to-end encrypted. Since the page was reloaded, this tab no
          longer holds your key file, so it cannot open them. Load your{' '}
          <span className="text-primary">.sck</span> key file again to unlock them.
        </p>
        <ul className="space-y-1 text-xs leading-relaxed text-muted">
          <li>
            <span aria-hidden="true" className="text-primary">
              &gt;{' '}
            </span>
            The file is read and checked in this browser. Your private key never leaves it: it is
            not uploaded and not saved.
          </li>
          <li>
            <span aria-hidden="true" className="text-primary">
              &gt;{' '}
            </span>
            It stays in this tab&apos;s memory until you reload or close the tab.
          </li>
        </ul>
        <div className="space-y-2">
          <label
            htmlFor={`${ids}-file`}
            className="block text-xs font-bold tracking-[0.2em] text-muted uppercase"
          >
            Key file (.sck / .bin)
          </label>
          <input
            ref={inputRef}
            id={`${ids}-file`}
            type="file"
            accept={KEY_FILE_ACCEPT}
            disabled={isReading}
            onChange={(event) => void onFile(event)}
            aria-describedby={`${ids}-status`}
            aria-invalid={error !== null}
            data-testid="dm-unlock-input"
            className="block w-full cursor-pointer border border-dashed border-border bg-background p-2 text-xs text-fg file:mr-3 file:cursor-pointer file:border file:border-primary file:bg-primary/10 file:px-3 file:py-1.5 file:font-mono file:text-xs file:font-bold file:tracking-widest file:text-primary file:uppercase hover:border-primary disabled:cursor-wait"
          />
          <p
            id={`${ids}-status`}
            aria-live="polite"
            className="min-h-5 text-xs"
            data-testid="dm-unlock-status"
          >
            {isReading ? (
              <span className="text-muted">&gt; READING KEY FILE...</span>
            ) : error ? (
              <span className="text-danger">
                &gt; {error.title}: {error.description}
              </span>
            ) : (
              <span className="text-muted">&gt; NO KEY FILE LOADED</span>
            )}
          </p>
        </div>
      </div>
    </section>
  );
}

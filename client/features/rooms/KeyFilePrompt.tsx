/**
 * The one prompt a signed-in key holder sees in the chat when this tab does not hold their key
 * file (a reload, a new tab, a pasted room link): LOAD KEY FILE puts it back in memory, which
 * signs the room identity again (others see VERIFIED) and unlocks direct messages. A key
 * remembered under a passphrase asks for the passphrase instead, with the file as the other way.
 */
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { readKeyFile } from '../../lib/key-file/read-key-file.js';
import { KEY_FILE_ACCEPT } from '../../lib/key-file/key-file-name.js';
import { useAuth } from '../../lib/session/use-auth.js';

const BUTTON = 'sc-btn border-warning px-2 py-0.5 text-xs text-warning disabled:opacity-50';

export function KeyFilePrompt() {
  const { keyFileState, loadKeyFile, unlockRememberedKey, forgetKey } = useAuth();
  const ids = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [passphrase, setPassphrase] = useState('');

  if (keyFileState !== 'missing' && keyFileState !== 'locked') return null;
  const isLocked = keyFileState === 'locked';

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setError(null);
    const result = await readKeyFile(file);
    setBusy(false);
    // Cleared so that choosing the same file again fires a change.
    input.value = '';
    if (!result.ok) {
      setError(`${result.title}: ${result.description}`);
      return;
    }
    try {
      loadKeyFile(result.keyFile);
    } catch {
      setError(TEXT.dmWrongKeyFile);
    }
  };

  const unlock = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await unlockRememberedKey(passphrase);
      setPassphrase('');
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The key could not be opened');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      role="alert"
      aria-labelledby={`${ids}-title`}
      data-testid="key-file-prompt"
      className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-warning bg-warning/10 px-3 py-1.5 text-xs tracking-wider text-warning"
    >
      <span id={`${ids}-title`} className="font-bold">
        {isLocked ? 'KEY LOCKED' : 'KEY FILE NOT LOADED'}
      </span>
      <span className="min-w-0 flex-1 text-fg">
        {isLocked
          ? 'Your key is remembered on this device under a passphrase. Enter it to be verified again and open your direct messages.'
          : 'Load your key file: until then others see your messages as UNVERIFIED and your direct messages stay locked.'}
      </span>
      {isLocked ? (
        <form className="flex items-center gap-1.5" onSubmit={(event) => void unlock(event)}>
          <label htmlFor={`${ids}-passphrase`} className="sr-only">
            Passphrase
          </label>
          <input
            id={`${ids}-passphrase`}
            type="password"
            autoComplete="current-password"
            value={passphrase}
            onChange={(event) => setPassphrase(event.target.value)}
            className="w-40 border border-border bg-background px-1.5 py-0.5 text-xs text-fg"
            data-testid="key-passphrase-input"
          />
          <button
            type="submit"
            disabled={isBusy || passphrase === ''}
            className={BUTTON}
            data-testid="key-unlock-button"
          >
            <span aria-hidden="true">[</span>UNLOCK<span aria-hidden="true">]</span>
          </button>
        </form>
      ) : null}
      <input
        ref={inputRef}
        type="file"
        accept={KEY_FILE_ACCEPT}
        className="hidden"
        onChange={(event) => void onFile(event)}
        data-testid="key-file-prompt-input"
      />
      <button
        type="button"
        disabled={isBusy}
        onClick={() => inputRef.current?.click()}
        className={BUTTON}
        data-testid="key-file-prompt-load"
      >
        <span aria-hidden="true">[</span>LOAD KEY FILE<span aria-hidden="true">]</span>
      </button>
      {isLocked ? (
        <button
          type="button"
          disabled={isBusy}
          onClick={() => void forgetKey()}
          className={BUTTON}
          data-testid="key-forget-remembered"
        >
          <span aria-hidden="true">[</span>ERASE REMEMBERED KEY<span aria-hidden="true">]</span>
        </button>
      ) : null}
      {error ? (
        <p role="status" className="w-full text-danger" data-testid="key-file-prompt-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Key generation in the browser (spec 001 §2 "Key Management", §5, §8): username (required),
 * level, validity days (0 = never, default 365). The key pair is made here with createKeyFile;
 * only its public part is registered; the whole file, private keys included, is then downloaded
 * through a Blob URL. A key the server refused is not lost (issue 21): it is handed over with the
 * spec's warning 'Key generated but not registered with server' and the reason, and the notice
 * offers to retry the registration; the file cannot log in until its public part is registered.
 */
import { useId, useState, type FormEvent } from 'react';
import { createKeyFile } from '../../../shared/crypto/key-file.js';
import {
  KeyPermissionLevelSchema,
  keyFileName,
  type KeyFile,
} from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';
import { Bracketed, DIALOG_BUTTON, DIALOG_BUTTON_SECONDARY } from '../../ui/TerminalDialog.js';
import {
  BADGE,
  BADGE_TONE,
  FIELD,
  HINT,
  LABEL,
  SECTION_TITLE,
  SECTION_TITLE_BASE,
} from '../../ui/admin-styles.js';
import { downloadKeyFile, registerIssuedKey, type IssuedKey } from './issue-key.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import {
  DEFAULT_VALIDITY_INPUT,
  KEY_LEVEL_OPTIONS,
  MAX_KEY_VALIDITY_DAYS,
  checkKeyGenerationForm,
  describeValidity,
  type KeyGenerationForm,
  type KeyGenerationProblem,
} from './key-generation.js';
import { formatKeyExpiry, levelTone } from './key-list.js';

type Phase = 'idle' | 'generating' | 'registering';

export interface KeyGenerateFormProps {
  /** Called after a key was registered, so the list can refresh. */
  onRegistered: () => void;
  /** Who registers the key: the admin key holder's session unless told (the first-key dialog). */
  credential?: AdminCredential;
  /** The level the form starts with; default user. */
  initialLevel?: KeyFile['permissions']['level'];
  /** Offered beside a registered key: log in with it in this tab (the first-key dialog). */
  onLogIn?: (keyFile: KeyFile) => Promise<void>;
}

const downloadKey = downloadKeyFile;

/** Lets the browser paint the busy state before the key maths blocks the thread briefly. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, 0));
}

export function KeyGenerateForm({
  onRegistered,
  credential = { kind: 'key-session' },
  initialLevel = 'user',
  onLogIn,
}: KeyGenerateFormProps) {
  const ids = useId();
  const [form, setForm] = useState<KeyGenerationForm>({
    username: '',
    level: initialLevel,
    validityDays: DEFAULT_VALIDITY_INPUT,
  });
  const [problem, setProblem] = useState<KeyGenerationProblem | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [generated, setGenerated] = useState<IssuedKey | null>(null);
  // The validity hint needs "now"; taken when the form mounts, which is precise enough for a date.
  const [openedAt] = useState(() => new Date());
  const isBusy = phase !== 'idle';

  const update = (patch: Partial<KeyGenerationForm>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    const checked = checkKeyGenerationForm(form);
    if (!checked.ok) {
      setProblem(checked.problem);
      toast({
        title: checked.problem.title,
        description: checked.problem.description,
        variant: 'destructive',
      });
      return;
    }
    setPhase('generating');
    await nextFrame();
    let keyFile: KeyFile;
    try {
      keyFile = await createKeyFile(checked.request);
    } catch (error) {
      setPhase('idle');
      toast({
        title: TEXT.generationFailedTitle,
        description: error instanceof Error ? error.message : TEXT.generationFailedTitle,
        variant: 'destructive',
      });
      return;
    }
    setPhase('registering');
    const issued = await registerIssuedKey(keyFile, credential);
    setPhase('idle');
    setGenerated(issued);
    setForm((previous) => ({ ...previous, username: '' }));
    if (issued.registered) onRegistered();
    else {
      toast({
        title: TEXT.keyRegistrationWarningTitle,
        description: `${TEXT.keyGeneratedNotRegistered}: ${issued.reason}`,
        variant: 'destructive',
      });
    }
    downloadKey(keyFile);
  };

  const retryRegistration = async (keyFile: KeyFile) => {
    const issued = await registerIssuedKey(keyFile, credential);
    setGenerated(issued);
    if (issued.registered) onRegistered();
  };

  if (generated) {
    return (
      <GeneratedKeyNotice
        issued={generated}
        onRetry={(keyFile) => retryRegistration(keyFile)}
        onDone={() => setGenerated(null)}
        onLogIn={onLogIn}
      />
    );
  }

  return (
    <form
      className="space-y-3 border border-border bg-background p-4"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby={`${ids}-title`}
      data-testid="key-generate-form"
    >
      <h3 id={`${ids}-title`} className={SECTION_TITLE}>
        Generate key
      </h3>
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
        <div>
          <label htmlFor={`${ids}-username`} className={LABEL}>
            Username <span aria-hidden="true">*</span>
          </label>
          <input
            id={`${ids}-username`}
            className={FIELD}
            value={form.username}
            required
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            placeholder="operative-name"
            disabled={isBusy}
            aria-invalid={problem?.field === 'username'}
            aria-describedby={`${ids}-problem`}
            data-testid="key-generate-username"
            onChange={(event) => update({ username: event.currentTarget.value })}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-level`} className={LABEL}>
            Level
          </label>
          <select
            id={`${ids}-level`}
            className={FIELD}
            value={form.level}
            disabled={isBusy}
            data-testid="key-generate-level"
            onChange={(event) => {
              const parsed = KeyPermissionLevelSchema.safeParse(event.currentTarget.value);
              if (parsed.success) update({ level: parsed.data });
            }}
          >
            {KEY_LEVEL_OPTIONS.map((level) => (
              <option key={level} value={level}>
                {level.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-days`} className={LABEL}>
            Validity (days)
          </label>
          <input
            id={`${ids}-days`}
            className={FIELD}
            type="number"
            min={0}
            max={MAX_KEY_VALIDITY_DAYS}
            step={1}
            inputMode="numeric"
            value={form.validityDays}
            disabled={isBusy}
            aria-invalid={problem?.field === 'validityDays'}
            aria-describedby={`${ids}-days-hint ${ids}-problem`}
            data-testid="key-generate-days"
            onChange={(event) => update({ validityDays: event.currentTarget.value })}
          />
        </div>
      </div>
      <p id={`${ids}-days-hint`} className={HINT}>
        0 means the key never expires. {describeValidity(form.validityDays, openedAt)}.
      </p>
      <div
        id={`${ids}-problem`}
        role="alert"
        className="text-xs"
        data-testid="key-generate-problem"
      >
        {problem ? (
          <p className="font-bold text-danger">
            {problem.title}: {problem.description}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-[0.75rem] text-muted">
          ML-DSA-65 + ECDSA P-256, generated in this browser. Only the public part is sent.
        </p>
        <button
          type="submit"
          className={DIALOG_BUTTON}
          disabled={isBusy}
          data-testid="key-generate-submit"
        >
          <Bracketed>
            {phase === 'generating'
              ? 'GENERATING...'
              : phase === 'registering'
                ? 'REGISTERING...'
                : 'GENERATE KEY'}
          </Bracketed>
        </button>
      </div>
    </form>
  );
}

function GeneratedKeyNotice({
  issued,
  onRetry,
  onDone,
  onLogIn,
}: {
  issued: IssuedKey;
  onRetry: (keyFile: KeyFile) => Promise<void>;
  onDone: () => void;
  onLogIn: ((keyFile: KeyFile) => Promise<void>) | undefined;
}) {
  const ids = useId();
  const { keyFile } = issued;
  const [isRetrying, setRetrying] = useState(false);
  const [isLoggingIn, setLoggingIn] = useState(false);
  return (
    <section
      aria-labelledby={`${ids}-title`}
      className={`space-y-3 border p-4 ${issued.registered ? 'border-warning bg-warning/10' : 'border-danger bg-danger/10'}`}
      data-testid="key-generated-notice"
    >
      <h3
        id={`${ids}-title`}
        className={`${SECTION_TITLE_BASE} ${issued.registered ? 'text-warning' : 'text-danger'}`}
      >
        {issued.registered
          ? '[!] Key generated and registered'
          : `[!] ${TEXT.keyRegistrationWarningTitle}: ${TEXT.keyGeneratedNotRegistered}`}
      </h3>
      {issued.registered ? null : (
        <div
          role="alert"
          className="space-y-1 border border-danger/60 bg-background p-3 text-xs leading-relaxed"
          data-testid="key-not-registered"
        >
          <p className="font-bold text-danger">
            {TEXT.keyGeneratedNotRegistered}: {issued.reason}
          </p>
          <p className="text-fg">
            The file below was downloaded anyway, so the key is not lost, but it cannot log in until
            its public part is registered: retry here, or register the file later (admin panel or{' '}
            <code className="text-accent">POST /api/keys/register</code>).
          </p>
        </div>
      )}
      <p role="alert" className="text-xs leading-relaxed text-fg">
        <strong className="text-warning">This file holds the private keys.</strong> It is shown
        once: the server keeps only the public part, and once you close this notice the file cannot
        be downloaded again. Store it somewhere safe and hand it over privately.
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
        <dt className="text-muted">FILE</dt>
        <dd className="break-all text-fg" data-testid="key-generated-file">
          {keyFileName(keyFile.username)}
        </dd>
        <dt className="text-muted">USERNAME</dt>
        <dd className="break-all text-primary">{keyFile.username}</dd>
        <dt className="text-muted">LEVEL</dt>
        <dd>
          <span className={`${BADGE} ${BADGE_TONE[levelTone(keyFile.permissions.level)]}`}>
            {keyFile.permissions.level}
          </span>
        </dd>
        <dt className="text-muted">KEY ID</dt>
        <dd className="break-all text-fg" data-testid="key-generated-id">
          {keyFile.keyId}
        </dd>
        <dt className="text-muted">EXPIRES</dt>
        <dd className="text-fg">{formatKeyExpiry(keyFile.expires ?? null)}</dd>
        <dt className="text-muted">FINGERPRINT</dt>
        <dd className="break-all text-muted">{keyFile.fingerprint}</dd>
      </dl>
      <div className="flex flex-wrap justify-end gap-2">
        {issued.registered ? null : (
          <button
            type="button"
            className={DIALOG_BUTTON_SECONDARY}
            disabled={isRetrying}
            onClick={() => {
              setRetrying(true);
              void onRetry(keyFile).finally(() => setRetrying(false));
            }}
            data-testid="key-generated-retry"
          >
            <Bracketed>{isRetrying ? 'REGISTERING...' : 'RETRY REGISTRATION'}</Bracketed>
          </button>
        )}
        <button
          type="button"
          className={DIALOG_BUTTON_SECONDARY}
          onClick={() => downloadKey(keyFile)}
          data-testid="key-generated-download"
        >
          <Bracketed>DOWNLOAD AGAIN</Bracketed>
        </button>
        {issued.registered && onLogIn ? (
          <button
            type="button"
            className={DIALOG_BUTTON}
            disabled={isLoggingIn}
            onClick={() => {
              setLoggingIn(true);
              void onLogIn(keyFile).finally(() => setLoggingIn(false));
            }}
            data-testid="key-generated-login"
          >
            <Bracketed>{isLoggingIn ? 'LOGGING IN...' : 'LOG IN WITH THIS KEY'}</Bracketed>
          </button>
        ) : (
          <button
            type="button"
            className={DIALOG_BUTTON}
            onClick={onDone}
            data-testid="key-generated-done"
          >
            <Bracketed>DONE, FILE STORED</Bracketed>
          </button>
        )}
      </div>
    </section>
  );
}

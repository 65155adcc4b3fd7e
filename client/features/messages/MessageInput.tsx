/**
 * The message input (spec 000 §2, §5): text is trimmed and an empty or whitespace-only message
 * cannot be sent; Enter sends, Shift+Enter starts a new line; everything is disabled until the
 * room is joined. Its footer holds the stealth toggle, the image upload button and the send
 * button.
 */
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ImageUploadButton, type UploadedImage } from '../images/index.js';

export interface MessageInputProps {
  isDisabled: boolean;
  /** Why the input is disabled, shown as its placeholder. */
  disabledText: string;
  /** Handles a command or sends; resolves true when the text was used and may be cleared. */
  onSubmit: (text: string, isStealthMode: boolean) => Promise<boolean>;
  /** Every change of the text, for the typing signal. */
  onTextChange: (text: string) => void;
  /** The room images are uploaded to. */
  imageRoomId?: string | null;
  /** Sends an uploaded image end to end; absent or null keeps the image button disabled. */
  onSendImage?: ((uploaded: UploadedImage) => Promise<boolean>) | null;
}

export function MessageInput({
  isDisabled,
  disabledText,
  onSubmit,
  onTextChange,
  imageRoomId = null,
  onSendImage = null,
}: MessageInputProps) {
  const ids = useId();
  const [text, setText] = useState('');
  const [isStealthMode, setStealthMode] = useState(false);
  const [isSending, setSending] = useState(false);
  const canSend = !isDisabled && !isSending && text.trim() !== '';

  const submit = async () => {
    if (!canSend) return;
    setSending(true);
    try {
      if (await onSubmit(text, isStealthMode)) {
        setText('');
        onTextChange('');
      }
    } finally {
      setSending(false);
    }
  };

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <form
      onSubmit={onFormSubmit}
      aria-label="Send a message"
      className="border-t border-border bg-surface px-3 pt-2 pb-2"
      data-testid="message-form"
    >
      <label htmlFor={`${ids}-text`} className="sr-only">
        Message
      </label>
      <div className="flex items-start gap-2">
        <span aria-hidden="true" className="pt-2 text-sm text-primary">
          {'>'}
        </span>
        <textarea
          id={`${ids}-text`}
          data-testid="message-input"
          rows={1}
          value={text}
          disabled={isDisabled}
          maxLength={4000}
          placeholder={isDisabled ? disabledText : 'Type a secure message...'}
          aria-describedby={`${ids}-hint`}
          onChange={(event) => {
            setText(event.currentTarget.value);
            onTextChange(event.currentTarget.value);
          }}
          onKeyDown={onKeyDown}
          className="max-h-32 min-h-9 flex-1 resize-none border border-border bg-background px-2 py-1.5 text-sm text-fg [field-sizing:content] placeholder:text-muted focus:border-primary focus:outline-none disabled:cursor-not-allowed disabled:opacity-60"
        />
      </div>
      <div className="mt-2 flex items-center gap-2">
        <button
          type="button"
          data-testid="stealth-toggle"
          aria-pressed={isStealthMode}
          onClick={() => setStealthMode((on) => !on)}
          className={`sc-btn px-2 py-1 text-xs ${isStealthMode ? 'bg-primary/20' : 'text-muted'}`}
        >
          <span aria-hidden="true">{isStealthMode ? '◉' : '○'}</span>
          STEALTH
        </button>
        <ImageUploadButton roomId={imageRoomId} isDisabled={isDisabled} onSendImage={onSendImage} />
        <p id={`${ids}-hint`} className="min-w-0 flex-1 truncate text-xs tracking-wider text-muted">
          {isStealthMode ? (
            'Stealth: others see a redacted block until they click it.'
          ) : (
            <>
              Enter sends<span className="hidden sm:inline"> · Shift+Enter: new line</span>
            </>
          )}
        </p>
        <button
          type="submit"
          data-testid="send-button"
          disabled={!canSend}
          className="sc-btn ml-auto px-3 py-1 text-xs"
        >
          <span aria-hidden="true">[</span>SEND<span aria-hidden="true">]</span>
        </button>
      </div>
    </form>
  );
}

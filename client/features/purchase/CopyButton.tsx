/** Copies a value to the clipboard and says so (texts of spec 001 §8 "Copy Failed"). */
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';

export function CopyButton({
  value,
  label,
  testId,
}: {
  value: string;
  label: string;
  testId: string;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: TEXT.copied, description: `${label} copied to clipboard`, duration: 2000 });
    } catch {
      toast({
        title: TEXT.copyFailed,
        description: TEXT.copyFailedDescription,
        variant: 'destructive',
      });
    }
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      data-testid={testId}
      aria-label={`Copy ${label.toLowerCase()}`}
      className="shrink-0 border border-border px-3 py-2 text-xs font-bold tracking-[0.18em] text-primary hover:border-primary hover:bg-primary/10"
    >
      COPY
    </button>
  );
}

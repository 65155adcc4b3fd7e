/** An onion address as the Tor panels show it: the address (or a dash) and a Copy button. */
import { SMALL_BUTTON } from '../../ui/admin-styles.js';
import { useCopyOnion } from './use-copy-onion.js';

export function OnionAddressCopy({
  address,
  testId,
}: {
  address: string | null | undefined;
  testId: string;
}) {
  const copyOnion = useCopyOnion();
  return (
    <dd className="flex min-w-0 flex-wrap items-center gap-2">
      <code className="break-all text-fg" data-testid={testId}>
        {address ?? '—'}
      </code>
      {address ? (
        <button type="button" className={SMALL_BUTTON} onClick={() => void copyOnion(address)}>
          Copy
        </button>
      ) : null}
    </dd>
  );
}

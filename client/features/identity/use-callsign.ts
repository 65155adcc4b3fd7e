import { useCallback, useState } from 'react';
import { IDENTITY_RELOAD_DELAY_MS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';
import { getOrCreateCallsign, replaceCallsign } from './callsign.js';

/**
 * The visitor's callsign and its regeneration: the new one is stored, IDENTITY_REGENERATED is
 * toasted and the page reloads after 1.5 s so every open view picks it up (spec 000 §1).
 */
export function useCallsign() {
  const [callsign, setCallsign] = useState(getOrCreateCallsign);

  const regenerate = useCallback(() => {
    try {
      const next = replaceCallsign(callsign);
      setCallsign(next);
      toast({
        title: TEXT.identityRegenerated,
        description: `New callsign: ${next}`,
        variant: 'success',
      });
      window.setTimeout(() => window.location.reload(), IDENTITY_RELOAD_DELAY_MS);
    } catch {
      toast({
        title: TEXT.regenerationFailedTitle,
        description: TEXT.regenerationFailed,
        variant: 'destructive',
      });
    }
  }, [callsign]);

  return { callsign, regenerate };
}

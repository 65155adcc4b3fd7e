/** Copies the onion address, with the spec's toasts (spec 000 §8). */
import { useCallback } from 'react';
import { TOR_TEXT } from '../../../shared/protocol/http/tor.js';
import { toast } from '../../ui/use-toast.js';

export function useCopyOnion(): (address: string) => Promise<void> {
  return useCallback(async (address: string) => {
    try {
      await navigator.clipboard.writeText(address);
      toast({ title: TOR_TEXT.copied, variant: 'success' });
    } catch {
      toast({
        title: TOR_TEXT.copyFailedTitle,
        description: TOR_TEXT.copyOnionFailed,
        variant: 'destructive',
      });
    }
  }, []);
}

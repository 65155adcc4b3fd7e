/**
 * The recipient check of the new-conversation dialog (spec 001 §4, §5): while the user types a
 * spinner shows; 300 ms after the last keystroke the text's shape is checked locally, and 500 ms
 * after it the registered users (fetched once and cached) are searched. The result is a check
 * mark with the user, or a cross.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type RegisteredUser } from '../../../shared/protocol/http/auth.js';
import { dmKeys, fetchRegisteredUsers } from './dm-api.js';
import {
  DM_RECIPIENT_LOCAL_DEBOUNCE_MS,
  DM_RECIPIENT_SERVER_DEBOUNCE_MS,
  DM_USERS_CACHE_MS,
} from './dm-constants.js';
import { reportDmError } from './dm-errors.js';
import { findRecipient, isRecipientFormat } from './recipient-match.js';

export type RecipientCheck =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'found'; user: RegisteredUser }
  | { state: 'self' }
  | { state: 'not-found' };

export function useRecipientCheck(input: string, myKeyId: string): RecipientCheck {
  const queryClient = useQueryClient();
  const [result, setResult] = useState<{ input: string; check: RecipientCheck } | null>(null);
  const value = input.trim();

  useEffect(() => {
    if (value === '') return;
    let isCurrent = true;
    const settle = (check: RecipientCheck) => {
      if (isCurrent) setResult({ input: value, check });
    };
    const local = window.setTimeout(() => {
      if (!isRecipientFormat(value)) {
        settle({ state: 'not-found' });
        isCurrent = false;
      }
    }, DM_RECIPIENT_LOCAL_DEBOUNCE_MS);
    const remote = window.setTimeout(() => {
      if (!isCurrent) return;
      queryClient
        .fetchQuery({
          queryKey: dmKeys.users,
          queryFn: fetchRegisteredUsers,
          staleTime: DM_USERS_CACHE_MS,
        })
        .then((users) => {
          const user = findRecipient(value, users);
          if (!user) settle({ state: 'not-found' });
          else settle(user.keyId === myKeyId ? { state: 'self' } : { state: 'found', user });
        })
        .catch((error: unknown) => {
          if (isCurrent) reportDmError(TEXT.dmFetchUsersFailed, error);
          settle({ state: 'not-found' });
        });
    }, DM_RECIPIENT_SERVER_DEBOUNCE_MS);
    return () => {
      isCurrent = false;
      window.clearTimeout(local);
      window.clearTimeout(remote);
    };
  }, [value, myKeyId, queryClient]);

  if (value === '') return { state: 'idle' };
  return result !== null && result.input === value ? result.check : { state: 'checking' };
}

/**
 * The registered keys (spec 001 §2 "Key Management", §3): key id, username, level (admin as a
 * destructive badge), expiry or NEVER, and revoked state; revoking asks for a confirmation first
 * ('Key Revoked' / 'Revocation Failed', 'Could not revoke the key').
 */
import { useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';
import { Bracketed } from '../../ui/TerminalDialog.js';
import { revokeKey } from '../../lib/admin/admin-api.js';
import { BADGE, BADGE_TONE, SMALL_BUTTON, SMALL_DANGER_BUTTON } from '../../ui/admin-styles.js';
import {
  formatKeyExpiry,
  keyState,
  levelTone,
  shortKeyId,
  type AdminKey,
  type KeyState,
} from './key-list.js';
import { AdminTableHead } from './AdminTable.js';

const STATE_TONE: Record<KeyState, keyof typeof BADGE_TONE> = {
  active: 'primary',
  expired: 'warning',
  revoked: 'danger',
};

export interface KeyListTableProps {
  keys: readonly AdminKey[];
  now: Date;
  /** The admin's own key: revoking it ends this session too, so the confirmation says so. */
  currentKeyId: string | null;
  onRevoked: () => void;
}

export function KeyListTable({ keys, now, currentKeyId, onRevoked }: KeyListTableProps) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  const revoke = async (key: AdminKey) => {
    setRevoking(key.keyId);
    try {
      const answer = await revokeKey(key.keyId, { kind: 'key-session' });
      toast({
        title: TEXT.keyRevokedTitle,
        description: `${key.username} (${shortKeyId(key.keyId)}): ${answer.sessionsEnded} session${answer.sessionsEnded === 1 ? '' : 's'} ended.`,
        variant: 'success',
      });
      onRevoked();
    } catch {
      toast({
        title: TEXT.revocationFailedTitle,
        description: TEXT.revocationFailed,
        variant: 'destructive',
      });
    } finally {
      setRevoking(null);
      setConfirming(null);
    }
  };

  if (keys.length === 0) {
    return <p className="py-6 text-center text-xs text-muted">No keys registered yet.</p>;
  }

  return (
    <div className="overflow-x-auto">
      <table
        className="w-full min-w-[40rem] border-collapse text-left text-xs"
        data-testid="admin-key-table"
      >
        <caption className="sr-only">Registered keys</caption>
        <AdminTableHead
          columns={[
            'Key ID',
            'Username',
            'Level',
            'Expires',
            'State',
            { label: 'Actions', isHidden: true, className: 'w-56 text-right' },
          ]}
        />
        <tbody>
          {keys.map((key) => {
            const state = keyState(key, now);
            const isOwn = key.keyId === currentKeyId;
            const isConfirming = confirming === key.keyId;
            return (
              <tr
                key={key.keyId}
                className={`border-b border-border/50 align-top ${state === 'revoked' ? 'text-muted' : 'text-fg'}`}
                data-testid="admin-key-row"
                data-key-id={key.keyId}
              >
                <td className="py-2 pr-3 font-mono whitespace-nowrap" title={key.keyId}>
                  {shortKeyId(key.keyId)}
                </td>
                <td className="max-w-[12rem] py-2 pr-3 break-words">
                  {key.username}
                  {isOwn ? <span className="ml-1 text-[0.75rem] text-accent">(you)</span> : null}
                </td>
                <td className="py-2 pr-3">
                  <span className={`${BADGE} ${BADGE_TONE[levelTone(key.permissions.level)]}`}>
                    {key.permissions.level}
                  </span>
                </td>
                <td className="py-2 pr-3 whitespace-nowrap">{formatKeyExpiry(key.expires)}</td>
                <td className="py-2 pr-3">
                  <span
                    className={`${BADGE} ${BADGE_TONE[STATE_TONE[state]]}`}
                    data-testid="admin-key-state"
                  >
                    {state}
                  </span>
                </td>
                <td className="py-2 text-right">
                  {state === 'revoked' ? null : isConfirming ? (
                    <div
                      className="flex flex-col items-end gap-1"
                      role="group"
                      aria-label={`Confirm revoking ${key.username}`}
                    >
                      <span className="text-[0.75rem] text-warning">
                        {isOwn
                          ? 'Your own key: this session ends too.'
                          : 'Its sessions end at once.'}
                      </span>
                      <span className="flex gap-1">
                        <button
                          type="button"
                          className={`${SMALL_BUTTON} border-border bg-transparent text-muted hover:text-fg`}
                          disabled={revoking === key.keyId}
                          onClick={() => setConfirming(null)}
                        >
                          <Bracketed>CANCEL</Bracketed>
                        </button>
                        <button
                          type="button"
                          className={SMALL_DANGER_BUTTON}
                          autoFocus
                          disabled={revoking === key.keyId}
                          onClick={() => void revoke(key)}
                          data-testid="admin-key-confirm-revoke"
                        >
                          <Bracketed>
                            {revoking === key.keyId ? 'REVOKING...' : 'CONFIRM'}
                          </Bracketed>
                        </button>
                      </span>
                    </div>
                  ) : (
                    <button
                      type="button"
                      className={SMALL_DANGER_BUTTON}
                      aria-label={`Revoke key of ${key.username}`}
                      onClick={() => setConfirming(key.keyId)}
                      data-testid="admin-key-revoke"
                    >
                      <Bracketed>REVOKE</Bracketed>
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The landing page's ADMIN link (issue 33, "the operator's first five minutes"): the admin
 * password opens a ten-minute admin session (AdminPasswordGate), which may register keys
 * (spec 001 §7), so the operator generates the first admin key here, in the browser, downloads it
 * and logs in with it at once. The admin panel itself stays where spec 001 §2 puts it: behind the
 * `/admin` chat command for admin key holders; this dialog says so.
 */
import { useLocation } from 'wouter';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { useAdminSession } from '../../lib/admin/admin-session.js';
import { landingLoginFailureText } from '../auth/index.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { AdminPasswordGate } from '../../ui/AdminPasswordGate.js';
import { TerminalDialog } from '../../ui/TerminalDialog.js';
import { toast } from '../../ui/use-toast.js';
import { KeyGenerateForm } from './KeyGenerateForm.js';

export interface AdminAccessDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AdminAccessDialog({ open, onOpenChange }: AdminAccessDialogProps) {
  const session = useAdminSession();
  const { authenticate } = useAuth();
  const [, navigate] = useLocation();

  const logIn = async (keyFile: KeyFile) => {
    try {
      const user = await authenticate(keyFile);
      toast({
        title: TEXT.authenticationSuccessful,
        description: `Welcome, ${user.username}. Type /admin in the chat for the admin panel.`,
        variant: 'success',
      });
      onOpenChange(false);
      navigate('/');
    } catch (caught) {
      toast({
        title: TEXT.authenticationFailed,
        // Opened from the landing page: its texts (spec 001 §8).
        description: landingLoginFailureText(caught),
        variant: 'destructive',
      });
    }
  };

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Admin access"
      description={
        session
          ? 'Generate an admin key in this browser, keep the downloaded file, and log in with it. The admin panel then opens with /admin in the chat.'
          : 'Enter the admin password: it is in DATA_DIR/admin-password on the server (written on first start), or the ADMIN_PASSWORD you set.'
      }
      windowLabel="root@securechannel:~/admin"
      status={
        <span className={session ? 'text-primary' : 'text-danger'} data-testid="admin-access-state">
          {session ? 'AUTHENTICATED' : 'LOCKED'}
        </span>
      }
      widthClass="max-w-2xl"
      testId="admin-access"
    >
      {session ? (
        <KeyGenerateForm
          credential={{ kind: 'admin-session', token: session.sessionToken }}
          initialLevel="admin"
          onRegistered={() => undefined}
          onLogIn={logIn}
        />
      ) : (
        <AdminPasswordGate testIdPrefix="admin-access" />
      )}
    </TerminalDialog>
  );
}

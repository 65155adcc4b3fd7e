/**
 * /direct-messages (spec 001 §2 "Direct messages screen"):
 *
 * - without a session token or user: AUTHENTICATION REQUIRED;
 * - a key holder whose key file is not in this tab's memory (after a reload): UNLOCK YOUR
 *   CONVERSATIONS (every thread is end to end and needs the key file's private keys);
 * - otherwise the conversations (DmScreen).
 */
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type SessionUser } from '../../../shared/protocol/http/auth.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { AuthRequiredScreen } from './AuthRequiredScreen.js';
import { DmHeader } from './DmHeader.js';
import { DmScreen } from './DmScreen.js';
import { UnlockConversations } from './UnlockConversations.js';
import { useBackToChatPath } from './use-dm-queries.js';
import { useDmKeyFile } from './use-dm-key-file.js';

export function DirectMessagesPage() {
  const { user, sessionToken, keyFile: loginKeyFile, isLoading } = useAuth();
  const keyFile = useDmKeyFile(sessionToken, user?.keyId ?? null, loginKeyFile);
  if (isLoading) return <LoadingOverlay isLoading message={TEXT.loading} />;
  if (!sessionToken || !user) return <AuthRequiredScreen />;
  return <DmGate user={user} sessionToken={sessionToken} keyFile={keyFile} />;
}

interface DmGateProps {
  user: SessionUser;
  sessionToken: string;
  keyFile: KeyFile | null;
}

/** The key file must be in this tab's memory before the conversations can open. */
function DmGate({ user, sessionToken, keyFile }: DmGateProps) {
  const backPath = useBackToChatPath();
  if (keyFile === null) {
    return (
      <div className="min-h-screen bg-background text-fg">
        <DmHeader backPath={backPath} link={null} onNewConversation={null} />
        <main className="px-3 py-6 sm:px-4 sm:py-10">
          <UnlockConversations keyId={user.keyId} sessionToken={sessionToken} />
        </main>
      </div>
    );
  }
  return <DmScreen user={user} sessionToken={sessionToken} keyFile={keyFile} />;
}

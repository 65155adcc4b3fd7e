/**
 * The Tor Network tab (spec 001 §2, §4): the admin controls and the bridge card of the Tor
 * feature, acting with the admin key holder's session.
 */
import { BridgeConfigCard, TorAdminControls } from '../tor/index.js';

const KEY_SESSION = { kind: 'key-session' } as const;

export function TorNetworkTab({ isActive }: { isActive: boolean }) {
  return (
    <div className="space-y-5">
      <TorAdminControls credential={KEY_SESSION} isActive={isActive} />
      {isActive ? <BridgeConfigCard credential={KEY_SESSION} /> : null}
    </div>
  );
}

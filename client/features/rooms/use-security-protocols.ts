/** The live inputs of the Security Protocols dialog: auth state, callsign and the page's origin. */
import { useAuth } from '../auth/use-auth.js';
import { useCallsign } from '../identity/use-callsign.js';
import { describeSecurityProtocols, type SecurityProtocolsState } from './security-protocols.js';

/**
 * Plug real state in here as features land: `isEndToEnd` comes from the chat's MessageCipher;
 * PFS and the VPN check get their own inputs in describeSecurityProtocols when they exist.
 */
export function useSecurityProtocols(
  options: { isEndToEnd?: boolean } = {},
): SecurityProtocolsState {
  const { user } = useAuth();
  const { callsign } = useCallsign();
  return describeSecurityProtocols({
    user,
    callsign,
    isSecureTransport: window.location.protocol === 'https:',
    isOnion: window.location.hostname.endsWith('.onion'),
    isEndToEnd: options.isEndToEnd ?? false,
  });
}

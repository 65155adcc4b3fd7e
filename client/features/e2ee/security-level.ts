/**
 * The security level label of the status bar (spec 000 §4 "Security level label"): MAXIMUM when
 * the certificate is ok and both the zero-knowledge key and the forward-secrecy key are present,
 * ENTERPRISE with any two, ENHANCED with one, BASIC with none. Authentication shows AUTHENTICATED
 * (premium key) or PUBLIC.
 */

export type SecurityLevelLabel = 'MAXIMUM' | 'ENTERPRISE' | 'ENHANCED' | 'BASIC';

export interface SecurityLevelInputs {
  /** Certificate status valid, pinned, or skipped on localhost. */
  isCertificateOk: boolean;
  /** A ZK key derived from the access code typed in this tab. */
  hasZeroKnowledgeKey: boolean;
  /** A confirmed PFS exchange key id. */
  hasForwardSecrecyKey: boolean;
}

const LABELS: readonly SecurityLevelLabel[] = ['BASIC', 'ENHANCED', 'ENTERPRISE', 'MAXIMUM'];

export function securityLevelLabel(inputs: SecurityLevelInputs): SecurityLevelLabel {
  const count = [
    inputs.isCertificateOk,
    inputs.hasZeroKnowledgeKey,
    inputs.hasForwardSecrecyKey,
  ].filter(Boolean).length;
  return LABELS[count]!;
}

export type AuthenticationLabel = 'AUTHENTICATED' | 'PUBLIC';

/** AUTHENTICATED for a key holder's session (premium key), PUBLIC otherwise. */
export function authenticationLabel(isKeyHolder: boolean): AuthenticationLabel {
  return isKeyHolder ? 'AUTHENTICATED' : 'PUBLIC';
}

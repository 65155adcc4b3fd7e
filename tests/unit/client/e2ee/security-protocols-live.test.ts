/**
 * The Security Protocols modal with the room's live encryption state (spec 000 §2): PFS key id,
 * ML-DSA-65 key age, E2E state, member verification and certificate status.
 */
import { describe, expect, it } from 'vitest';
import {
  describeSecurityProtocols,
  type E2eeProtocolInputs,
} from '../../../../client/features/rooms/security-protocols.js';

const LIVE: E2eeProtocolInputs = {
  phase: 'ready',
  pfsKeyId: 'pfs_0123456789abcdef',
  pfsStatus: 'active',
  epochId: 'a1b2c3d4e5f60718',
  signingKeyAgeMs: 125_000,
  identitySecureId: null,
  members: { verified: 1, unverified: 2, bad: 0, total: 3 },
  certificateText: 'VALID (LOCALHOST)',
  certificateState: 'ok',
  securityLabel: 'ENTERPRISE',
};

function describeWith(e2ee: E2eeProtocolInputs) {
  const state = describeSecurityProtocols({
    user: null,
    callsign: 'Ghost1',
    isSecureTransport: false,
    isOnion: false,
    isEndToEnd: e2ee.phase === 'ready',
    e2ee,
  });
  const byId = (id: string) => state.protocols.find((protocol) => protocol.id === id)!;
  return { state, byId };
}

describe('Security Protocols with the live room state', () => {
  it('reports PFS with its key id, signatures with the key age, E2E, members and certificate', () => {
    const { state, byId } = describeWith(LIVE);
    expect(byId('pfs')).toMatchObject({ state: 'active' });
    expect(byId('pfs').detail).toContain('pfs_0123456789abcdef');
    expect(byId('quantum-signatures').detail).toContain('age 2:05');
    expect(byId('e2e').state).toBe('active');
    expect(byId('member-verification').detail).toContain('1 verified');
    expect(byId('certificate')).toMatchObject({ state: 'active' });
    expect(byId('vpn-detection').state).toBe('inactive');
    expect(state.session.securityLabel).toBe('ENTERPRISE');
  });

  it('warns about a key substitution, a failed PFS exchange and a certificate mismatch', () => {
    const { byId } = describeWith({
      ...LIVE,
      pfsKeyId: null,
      pfsStatus: 'failed',
      members: { verified: 0, unverified: 1, bad: 1, total: 2 },
      certificateText: 'CERT_FAIL',
      certificateState: 'failed',
    });
    expect(byId('pfs').state).toBe('warning');
    expect(byId('pfs').detail).toContain('PFS key exchange failed');
    expect(byId('member-verification')).toMatchObject({ state: 'warning' });
    expect(byId('member-verification').detail).toContain('KEY SUBSTITUTION DETECTED');
    expect(byId('certificate').detail).toContain(
      'Certificate validation failed - connection may be compromised',
    );
  });

  it('says PFS not initialized until the first exchange is confirmed (spec 000 §8)', () => {
    const { byId } = describeWith({ ...LIVE, pfsKeyId: null, pfsStatus: 'pending' });
    expect(byId('pfs').state).toBe('pending');
    expect(byId('pfs').detail).toMatch(/^PFS not initialized: /);
  });

  it('says PENDING while keys are made and WARNING when they failed', () => {
    expect(describeWith({ ...LIVE, phase: 'initializing' }).byId('e2e').state).toBe('pending');
    expect(describeWith({ ...LIVE, phase: 'failed' }).byId('e2e').state).toBe('warning');
  });
});

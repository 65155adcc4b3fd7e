import { describe, expect, it } from 'vitest';
import { type SessionUser } from '../../../../shared/protocol/http/auth.js';
import { describeSecurityProtocols } from '../../../../client/features/rooms/security-protocols.js';

const USER: SessionUser = {
  keyId: `SCK${'0'.repeat(32)}`,
  username: 'alice',
  secureId: 'SCK_00000000',
  permissions: { level: 'admin', capabilities: ['admin', 'chat', 'upload', 'moderate'] },
  expires: '2031-01-01T00:00:00.000Z',
};

function stateOf(result: ReturnType<typeof describeSecurityProtocols>, id: string) {
  return result.protocols.find((protocol) => protocol.id === id)?.state;
}

describe('describeSecurityProtocols (spec 000 §2 Security Protocols)', () => {
  it('never claims E2E encryption, PFS or VPN detection without their live state', () => {
    for (const user of [null, USER]) {
      const result = describeSecurityProtocols({
        user,
        callsign: 'Ghost1',
        isSecureTransport: true,
        isOnion: false,
        isEndToEnd: false,
      });
      expect(stateOf(result, 'e2e')).toBe('pending');
      expect(stateOf(result, 'pfs')).toBe('pending');
      expect(result.protocols.find((protocol) => protocol.id === 'pfs')?.detail).toMatch(
        /^PFS not initialized: /,
      );
      expect(JSON.stringify(result)).not.toContain('being built');
      expect(stateOf(result, 'vpn-detection')).toBe('inactive');
    }
  });

  it('reports E2E as active once the chat cipher is end-to-end', () => {
    const result = describeSecurityProtocols({
      user: null,
      callsign: 'Ghost1',
      isSecureTransport: true,
      isOnion: false,
      isEndToEnd: true,
    });
    expect(stateOf(result, 'e2e')).toBe('active');
    expect(stateOf(result, 'pfs')).toBe('pending');
  });

  it('shows a key holder with their level, key and ML-DSA login', () => {
    const result = describeSecurityProtocols({
      user: USER,
      callsign: 'Ghost1',
      isSecureTransport: true,
      isOnion: false,
      isEndToEnd: false,
    });
    expect(stateOf(result, 'quantum-signatures')).toBe('active');
    expect(result.session).toMatchObject({
      mode: 'key',
      identity: 'alice',
      level: 'ADMIN',
      keySecureId: 'SCK_00000000',
      keyExpires: '2031-01-01T00:00:00.000Z',
    });
    expect(result.session.sessionExpiry).toContain('12 h');
  });

  it('shows a public visitor by callsign with no signatures', () => {
    const result = describeSecurityProtocols({
      user: null,
      callsign: 'Ghost1',
      isSecureTransport: false,
      isOnion: false,
      isEndToEnd: false,
    });
    expect(stateOf(result, 'quantum-signatures')).toBe('inactive');
    expect(stateOf(result, 'transport')).toBe('warning');
    expect(result.session).toMatchObject({ mode: 'public', identity: 'Ghost1', level: 'PUBLIC' });
  });
});

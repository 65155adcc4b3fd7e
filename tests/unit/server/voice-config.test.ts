/** Voice settings of the environment (server/config.ts): checked at start-up, secrets never echoed. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';

describe('voice configuration', () => {
  it('defaults to the public STUN servers, no TURN and calls of eight', () => {
    expect(loadConfig({}, '/x').voice).toEqual({
      iceServers: null,
      turn: null,
      maxParticipants: 8,
      signalsPerSecond: 10,
      callSignalsPerSecond: 120,
    });
  });

  it('reads ICE_SERVERS, TURN_URL, TURN_SECRET, TURN_TTL and the limits', () => {
    const config = loadConfig(
      {
        ICE_SERVERS: JSON.stringify([
          { urls: 'stun:stun.example.org:3478' },
          { urls: ['turns:turn.example.org:5349'], username: 'u', credential: 'c' },
        ]),
        TURN_URL: 'turn:turn.example.org:3478?transport=udp, turns:turn.example.org:5349',
        TURN_SECRET: 'a-long-shared-secret-value',
        TURN_TTL: '600',
        VOICE_MAX_PARTICIPANTS: '4',
        VOICE_SIGNALS_PER_SECOND: '5',
        VOICE_CALL_SIGNALS_PER_SECOND: '50',
      },
      '/x',
    );
    expect(config.voice).toEqual({
      iceServers: [
        { urls: 'stun:stun.example.org:3478' },
        { urls: ['turns:turn.example.org:5349'], username: 'u', credential: 'c' },
      ],
      turn: {
        urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'],
        secret: 'a-long-shared-secret-value',
        ttlSeconds: 600,
      },
      maxParticipants: 4,
      signalsPerSecond: 5,
      callSignalsPerSecond: 50,
    });
  });

  it('gives TURN credentials 10 minutes unless TURN_TTL says otherwise, at most an hour', () => {
    const config = loadConfig(
      { TURN_URL: 'turn:turn.example.org', TURN_SECRET: 'a-long-shared-secret-value' },
      '/x',
    );
    expect(config.voice.turn?.ttlSeconds).toBe(600);
    expect(() => loadConfig({ TURN_TTL: '59' }, '/x')).toThrow(/TURN_TTL/);
    expect(() => loadConfig({ TURN_TTL: '3601' }, '/x')).toThrow(/TURN_TTL/);
    expect(loadConfig({ TURN_TTL: '3600' }, '/x').voice.turn).toBeNull();
  });

  it('refuses to start with a bad ICE_SERVERS, naming the variable and no credential', () => {
    expect(() => loadConfig({ ICE_SERVERS: 'stun:stun.example.org' }, '/x')).toThrow(
      /ICE_SERVERS: must be a JSON array of ICE servers/,
    );
    expect(() => loadConfig({ ICE_SERVERS: '[]' }, '/x')).toThrow(/ICE_SERVERS/);
    const wrongScheme = () =>
      loadConfig(
        {
          ICE_SERVERS: JSON.stringify([
            { urls: 'http://example.org', username: 'u', credential: 'hunter2-s3cret' },
          ]),
        },
        '/x',
      );
    expect(wrongScheme).toThrow(/ICE_SERVERS: 0\.urls/);
    expect(wrongScheme).not.toThrow(/hunter2-s3cret/);
    expect(() =>
      loadConfig({ ICE_SERVERS: JSON.stringify([{ urls: 'stun:a.org', extra: 1 }]) }, '/x'),
    ).toThrow(/ICE_SERVERS/);
  });

  it('needs TURN_URL and TURN_SECRET together, and never echoes the secret', () => {
    const onlySecret = () => loadConfig({ TURN_SECRET: 'only-the-secret-s3cret' }, '/x');
    expect(onlySecret).toThrow(/TURN_URL, TURN_SECRET: set both/);
    expect(onlySecret).not.toThrow(/only-the-secret-s3cret/);
    expect(() => loadConfig({ TURN_URL: 'turn:turn.example.org' }, '/x')).toThrow(/set both/);
    expect(() =>
      loadConfig({ TURN_URL: 'stun:turn.example.org', TURN_SECRET: 'x'.repeat(20) }, '/x'),
    ).toThrow(/TURN_URL: expected turn: or turns: URLs/);
    const shortSecret = () =>
      loadConfig({ TURN_URL: 'turn:turn.example.org', TURN_SECRET: 'short' }, '/x');
    expect(shortSecret).toThrow(/TURN_SECRET/);
    expect(shortSecret).not.toThrow(/short[^ ]/);
    expect(() => loadConfig({ VOICE_MAX_PARTICIPANTS: '1' }, '/x')).toThrow(
      /VOICE_MAX_PARTICIPANTS/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SOUND_SETTINGS,
  isSoundAllowed,
  parseSoundSettings,
} from '../../../client/lib/sounds.js';

describe('parseSoundSettings (spec 000 §3 "Sound settings")', () => {
  it('gives the defaults when nothing is stored', () => {
    expect(parseSoundSettings(null)).toEqual({
      enabled: true,
      volume: 0.3,
      messageSound: true,
      systemSound: true,
      authSound: true,
    });
  });

  it('keeps valid stored settings', () => {
    const stored = {
      enabled: false,
      volume: 0.8,
      messageSound: false,
      systemSound: true,
      authSound: false,
    };
    expect(parseSoundSettings(JSON.stringify(stored))).toEqual(stored);
  });

  it('gives the defaults for text that is not JSON or not an object', () => {
    for (const raw of ['{not json', 'null', '42', '"loud"', '[]']) {
      expect(parseSoundSettings(raw)).toEqual(DEFAULT_SOUND_SETTINGS);
    }
  });

  it('replaces each malformed field with its default and keeps the rest', () => {
    const parsed = parseSoundSettings(
      JSON.stringify({ enabled: 'yes', volume: 7, messageSound: false, authSound: null }),
    );
    expect(parsed).toEqual({ ...DEFAULT_SOUND_SETTINGS, messageSound: false });
  });

  it('rejects a negative volume', () => {
    expect(parseSoundSettings(JSON.stringify({ volume: -0.1 })).volume).toBe(0.3);
  });

  it('drops unknown fields', () => {
    expect(parseSoundSettings(JSON.stringify({ extra: 1 }))).not.toHaveProperty('extra');
  });
});

describe('isSoundAllowed', () => {
  it('plays nothing when sounds are off or the volume is zero', () => {
    expect(isSoundAllowed({ ...DEFAULT_SOUND_SETTINGS, enabled: false }, 'message')).toBe(false);
    expect(isSoundAllowed({ ...DEFAULT_SOUND_SETTINGS, volume: 0 }, 'auth')).toBe(false);
  });

  it('respects the switch of each kind', () => {
    const settings = { ...DEFAULT_SOUND_SETTINGS, systemSound: false };
    expect(isSoundAllowed(settings, 'message')).toBe(true);
    expect(isSoundAllowed(settings, 'system')).toBe(false);
    expect(isSoundAllowed(settings, 'auth')).toBe(true);
  });
});

/** Voice modulation settings and presets (spec 000 §3), the call window's formats (§4, §9). */
import { describe, expect, it, vi } from 'vitest';
import {
  applyPreset,
  DEFAULT_VOICE_SETTINGS,
  disguiseParams,
  editDisguise,
  isVoiceBufferSize,
  loadVoiceSettings,
  VOICE_PRESETS,
  VoiceSettingsSchema,
} from '../../client/features/voice/voice-settings.js';
import {
  formatCallDuration,
  participantSummary,
  speakersFirst,
} from '../../client/features/voice/call-format.js';
import { VOICE_TEXT } from '../../client/features/voice/voice-constants.js';

describe('voice presets', () => {
  it('has the eight presets of spec 000 §3 with their exact values', () => {
    expect(
      VOICE_PRESETS.map((p) => [p.id, p.name, p.pitch, p.formant, p.robotize, p.scrambling]),
    ).toEqual([
      ['none', 'Natural Voice', 0, 0, false, false],
      ['cipher', 'Cipher Agent', 8, 0, false, false],
      ['deep', 'Deep Operative', -12, 0, false, false],
      ['matrix', 'Matrix Node', 4, -4, true, false],
      ['professional', 'Professional Anonymity', -6, -4, false, false],
      ['conference', 'Secure Conference', 3, -2, false, true],
      ['ghost', 'Ghost Protocol', -8, -8, true, false],
      ['scrambled', 'Full Scramble', -10, 6, true, true],
    ]);
  });

  it('applies a preset, turning the disguise on (off for Natural Voice)', () => {
    const deep = applyPreset(DEFAULT_VOICE_SETTINGS, 'deep');
    expect(deep).toMatchObject({ preset: 'deep', enabled: true, pitch: -12, formant: 0 });
    expect(disguiseParams(deep)).toEqual({
      pitch: -12,
      formant: 0,
      robotize: false,
      scrambling: false,
    });
    expect(applyPreset(deep, 'none')).toMatchObject({ preset: 'none', enabled: false, pitch: 0 });
  });

  it.each([{ pitch: 3 }, { formant: -1 }, { robotize: true }, { scrambling: true }])(
    'makes the preset custom on a manual edit %o',
    (edit) => {
      const edited = editDisguise(applyPreset(DEFAULT_VOICE_SETTINGS, 'cipher'), edit);
      expect(edited.preset).toBe('custom');
      expect(edited).toMatchObject(edit);
    },
  );

  it('sends neutral parameters while the disguise is off', () => {
    const off = { ...applyPreset(DEFAULT_VOICE_SETTINGS, 'ghost'), enabled: false };
    expect(disguiseParams(off)).toEqual({
      pitch: 0,
      formant: 0,
      robotize: false,
      scrambling: false,
    });
  });

  it('refuses stored settings outside the sliders of spec 000 §5', () => {
    expect(VoiceSettingsSchema.safeParse({ ...DEFAULT_VOICE_SETTINGS, pitch: 25 }).success).toBe(
      false,
    );
    expect(VoiceSettingsSchema.safeParse({ ...DEFAULT_VOICE_SETTINGS, formant: -13 }).success).toBe(
      false,
    );
    expect(VoiceSettingsSchema.safeParse({ ...DEFAULT_VOICE_SETTINGS, volume: 1.1 }).success).toBe(
      false,
    );
    expect(VoiceSettingsSchema.safeParse(DEFAULT_VOICE_SETTINGS).success).toBe(true);
  });
});

describe('audio buffer size (spec 000 §9: 1024 to 16384)', () => {
  it('takes the powers of two from 1024 to 16384 and nothing else', () => {
    for (const size of [1024, 2048, 4096, 8192, 16384]) expect(isVoiceBufferSize(size)).toBe(true);
    for (const size of [512, 32768, 1000, 3000, 4096.5, 0, -1024, '4096', null])
      expect(isVoiceBufferSize(size)).toBe(false);
  });

  it('refuses a stored size outside them with a clear message', () => {
    const parsed = VoiceSettingsSchema.safeParse({ ...DEFAULT_VOICE_SETTINGS, bufferSize: 3000 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      'Audio buffer size must be one of 1024, 2048, 4096, 8192, 16384 frames',
    );
    expect(
      VoiceSettingsSchema.safeParse({ ...DEFAULT_VOICE_SETTINGS, bufferSize: 8192 }).data
        ?.bufferSize,
    ).toBe(8192);
  });

  it('defaults to 1024 frames, also for settings stored before the buffer existed', () => {
    expect(DEFAULT_VOICE_SETTINGS.bufferSize).toBe(1024);
    const { bufferSize: _dropped, ...older } = { ...DEFAULT_VOICE_SETTINGS, pitch: 3 };
    const store = new Map([['securechannel-voice', JSON.stringify(older)]]);
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => store.set(key, value),
      removeItem: (key: string) => store.delete(key),
    };
    vi.stubGlobal('window', { localStorage: storage });
    try {
      expect(loadVoiceSettings()).toMatchObject({ pitch: 3, bufferSize: 1024 });
      store.set('securechannel-voice', JSON.stringify({ ...older, bufferSize: 5000 }));
      expect(loadVoiceSettings()).toEqual(DEFAULT_VOICE_SETTINGS);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('call window formats', () => {
  it('shows the duration as mm:ss', () => {
    expect(formatCallDuration(0)).toBe('00:00');
    expect(formatCallDuration(65_400)).toBe('01:05');
    expect(formatCallDuration(3_725_000)).toBe('62:05');
  });

  it('lists the first 3 participants plus a count', () => {
    expect(participantSummary(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(participantSummary(['a', 'b', 'c', 'd', 'e'])).toEqual({
      shown: ['a', 'b', 'c'],
      more: 2,
    });
  });

  it('lists speakers first, so a speaker beyond the first three is seen', () => {
    const roster = ['a', 'b', 'c', 'd'].map((nodeId) => ({ nodeId }));
    expect(speakersFirst(roster, ['d']).map((p) => p.nodeId)).toEqual(['d', 'a', 'b', 'c']);
    expect(speakersFirst(roster, []).map((p) => p.nodeId)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('uses the voice error texts of spec 000 §8 exactly', () => {
    expect(VOICE_TEXT.microphoneDenied).toBe(
      'Microphone access denied. Please allow microphone permissions.',
    );
    expect(VOICE_TEXT.startFailed).toBe(
      'Failed to start voice call. Please check your microphone permissions.',
    );
  });
});

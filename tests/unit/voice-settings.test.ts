/** Voice modulation settings and presets (spec 000 §3), the call window's formats (§4, §9). */
import { describe, expect, it } from 'vitest';
import {
  applyPreset,
  DEFAULT_VOICE_SETTINGS,
  disguiseParams,
  editDisguise,
  VOICE_PRESETS,
  VoiceSettingsSchema,
} from '../../client/features/voice/voice-settings.js';
import { formatCallDuration, participantSummary } from '../../client/features/voice/call-format.js';
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

  it('uses the voice error texts of spec 000 §8 exactly', () => {
    expect(VOICE_TEXT.microphoneDenied).toBe(
      'Microphone access denied. Please allow microphone permissions.',
    );
    expect(VOICE_TEXT.startFailed).toBe(
      'Failed to start voice call. Please check your microphone permissions.',
    );
  });
});

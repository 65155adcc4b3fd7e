/**
 * Voice modulation settings (spec 000 §3): enabled, preset, pitch, formant, robotize, encryption,
 * scrambling; the eight disguise presets with the spec's values; editing any setting by hand
 * makes the preset `custom`. Stored in this browser only (localStorage `securechannel-voice`),
 * with the chosen devices and the playback volume of the audio settings dialog.
 */
import { z } from 'zod';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage-keys.js';
import { type DisguiseParams } from './disguise-dsp.js';
import { VOICE_BUFFER_SIZES, type VoiceBufferSize } from './voice-constants.js';

/** A power of two from 1024 to 16384 (spec 000 §9). */
export function isVoiceBufferSize(value: unknown): value is VoiceBufferSize {
  return (VOICE_BUFFER_SIZES as readonly unknown[]).includes(value);
}

export const VoiceBufferSizeSchema = z
  .number()
  .refine(isVoiceBufferSize, {
    message: `Audio buffer size must be one of ${VOICE_BUFFER_SIZES.join(', ')} frames`,
  })
  .transform((value) => value as VoiceBufferSize);

export const PRESET_IDS = [
  'none',
  'cipher',
  'deep',
  'matrix',
  'professional',
  'conference',
  'ghost',
  'scrambled',
] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export interface VoicePreset {
  id: PresetId;
  name: string;
  pitch: number;
  formant: number;
  robotize: boolean;
  scrambling: boolean;
}

/** Spec 000 §3, in its order. */
export const VOICE_PRESETS: readonly VoicePreset[] = [
  { id: 'none', name: 'Natural Voice', pitch: 0, formant: 0, robotize: false, scrambling: false },
  { id: 'cipher', name: 'Cipher Agent', pitch: 8, formant: 0, robotize: false, scrambling: false },
  {
    id: 'deep',
    name: 'Deep Operative',
    pitch: -12,
    formant: 0,
    robotize: false,
    scrambling: false,
  },
  { id: 'matrix', name: 'Matrix Node', pitch: 4, formant: -4, robotize: true, scrambling: false },
  {
    id: 'professional',
    name: 'Professional Anonymity',
    pitch: -6,
    formant: -4,
    robotize: false,
    scrambling: false,
  },
  {
    id: 'conference',
    name: 'Secure Conference',
    pitch: 3,
    formant: -2,
    robotize: false,
    scrambling: true,
  },
  {
    id: 'ghost',
    name: 'Ghost Protocol',
    pitch: -8,
    formant: -8,
    robotize: true,
    scrambling: false,
  },
  {
    id: 'scrambled',
    name: 'Full Scramble',
    pitch: -10,
    formant: 6,
    robotize: true,
    scrambling: true,
  },
];

export const VoiceSettingsSchema = z.object({
  enabled: z.boolean(),
  preset: z.enum([...PRESET_IDS, 'custom']),
  pitch: z.number().int().min(-24).max(24),
  formant: z.number().int().min(-12).max(12),
  robotize: z.boolean(),
  scrambling: z.boolean(),
  /** Frame encryption on (the call window's toggle). */
  encryption: z.boolean(),
  inputDeviceId: z.string().max(256).nullable(),
  outputDeviceId: z.string().max(256).nullable(),
  /** Playback volume of the other participants, 0..1 step 0.1 (spec 000 §5). */
  volume: z.number().min(0).max(1),
  /**
   * Audio buffer size in frames (spec 000 §9): the call's AudioContext is created with
   * `latencyHint` = size ÷ 48000 s, the audio processing quantum the browser then buffers.
   */
  bufferSize: VoiceBufferSizeSchema,
});
export type VoiceSettings = z.infer<typeof VoiceSettingsSchema>;

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  enabled: false,
  preset: 'none',
  pitch: 0,
  formant: 0,
  robotize: false,
  scrambling: false,
  encryption: true,
  inputDeviceId: null,
  outputDeviceId: null,
  volume: 1,
  bufferSize: 1024,
};

/** The settings with `preset` applied (the disguise turns on unless it is Natural Voice). */
export function applyPreset(settings: VoiceSettings, id: PresetId): VoiceSettings {
  const preset = VOICE_PRESETS.find((candidate) => candidate.id === id);
  if (!preset) return settings;
  return {
    ...settings,
    preset: id,
    enabled: id !== 'none',
    pitch: preset.pitch,
    formant: preset.formant,
    robotize: preset.robotize,
    scrambling: preset.scrambling,
  };
}

export type DisguiseEdit = Partial<
  Pick<VoiceSettings, 'pitch' | 'formant' | 'robotize' | 'scrambling'>
>;

/** A manual edit of a disguise setting: the preset becomes `custom` (spec 000 §3). */
export function editDisguise(settings: VoiceSettings, edit: DisguiseEdit): VoiceSettings {
  return { ...settings, ...edit, preset: 'custom' };
}

/** What the worklet runs: neutral when the disguise is off. */
export function disguiseParams(settings: VoiceSettings): DisguiseParams {
  if (!settings.enabled) return { pitch: 0, formant: 0, robotize: false, scrambling: false };
  return {
    pitch: settings.pitch,
    formant: settings.formant,
    robotize: settings.robotize,
    scrambling: settings.scrambling,
  };
}

export function loadVoiceSettings(): VoiceSettings {
  const raw = readStorage(STORAGE_KEYS.voiceSettings);
  if (raw === null) return DEFAULT_VOICE_SETTINGS;
  try {
    const parsed = VoiceSettingsSchema.safeParse({
      ...DEFAULT_VOICE_SETTINGS,
      ...(JSON.parse(raw) as object),
    });
    return parsed.success ? parsed.data : DEFAULT_VOICE_SETTINGS;
  } catch {
    return DEFAULT_VOICE_SETTINGS;
  }
}

export function saveVoiceSettings(settings: VoiceSettings): void {
  writeStorage(STORAGE_KEYS.voiceSettings, JSON.stringify(settings));
}

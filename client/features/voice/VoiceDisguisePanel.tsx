/**
 * The voice disguise panel (spec 000 §2, §3, §5): on/off, the eight presets (or Custom once a
 * setting is edited), pitch −24..24 and formant −12..12 in semitone steps, robotize, scrambling.
 * Presentational: values in, changes out.
 */
import { useId } from 'react';
import { FORMANT_RANGE, PITCH_RANGE } from './voice-constants.js';
import {
  applyPreset,
  editDisguise,
  PRESET_IDS,
  VOICE_PRESETS,
  type PresetId,
  type VoiceSettings,
} from './voice-settings.js';

export interface VoiceDisguisePanelProps {
  settings: VoiceSettings;
  onChange: (next: VoiceSettings) => void;
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

function isPresetId(value: string): value is PresetId {
  return (PRESET_IDS as readonly string[]).includes(value);
}

export function VoiceDisguisePanel({ settings, onChange }: VoiceDisguisePanelProps) {
  const id = useId();
  const slider = (
    key: 'pitch' | 'formant',
    label: string,
    range: { min: number; max: number; step: number },
  ) => (
    <div className="flex items-center gap-3">
      <label htmlFor={`${id}-${key}`} className="w-24 text-xs tracking-[0.2em] text-fg uppercase">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={settings[key]}
        disabled={!settings.enabled}
        aria-valuetext={`${signed(settings[key])} semitones`}
        data-testid={`voice-${key}`}
        onChange={(event) =>
          onChange(editDisguise(settings, { [key]: Number(event.currentTarget.value) }))
        }
        className="h-1 flex-1 cursor-pointer accent-primary disabled:cursor-not-allowed"
      />
      <span aria-hidden="true" className="w-10 text-right text-xs text-muted tabular-nums">
        {signed(settings[key])}
      </span>
    </div>
  );
  const checkbox = (key: 'robotize' | 'scrambling', label: string) => (
    <label className="flex items-center gap-2 text-xs tracking-[0.2em] text-fg uppercase">
      <input
        type="checkbox"
        checked={settings[key]}
        disabled={!settings.enabled}
        data-testid={`voice-${key}`}
        onChange={(event) =>
          onChange(editDisguise(settings, { [key]: event.currentTarget.checked }))
        }
        className="accent-primary"
      />
      {label}
    </label>
  );
  return (
    <section
      aria-label="Voice disguise"
      className="sc-panel space-y-3 p-4 font-mono"
      data-testid="voice-disguise-panel"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-xs tracking-[0.3em] text-primary uppercase">{'// Voice disguise'}</h2>
        <button
          type="button"
          role="switch"
          aria-checked={settings.enabled}
          aria-label="Voice disguise"
          data-testid="voice-disguise-toggle"
          onClick={() => onChange({ ...settings, enabled: !settings.enabled })}
          className={`sc-btn min-w-20 px-2 py-1 text-xs ${settings.enabled ? 'text-primary' : 'text-muted'}`}
        >
          {settings.enabled ? '[ ON ]' : '[ OFF ]'}
        </button>
      </div>
      <div className="flex items-center gap-3">
        <label htmlFor={`${id}-preset`} className="w-24 text-xs tracking-[0.2em] text-fg uppercase">
          Preset
        </label>
        <select
          id={`${id}-preset`}
          value={settings.preset}
          data-testid="voice-preset"
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (isPresetId(value)) onChange(applyPreset(settings, value));
          }}
          className="flex-1 border border-border bg-background px-2 py-1 text-xs text-fg"
        >
          {VOICE_PRESETS.map((preset) => (
            <option key={preset.id} value={preset.id}>
              {preset.name} ({signed(preset.pitch)}/{signed(preset.formant)})
            </option>
          ))}
          {settings.preset === 'custom' ? <option value="custom">Custom</option> : null}
        </select>
      </div>
      {slider('pitch', 'Pitch', PITCH_RANGE)}
      {slider('formant', 'Formant', FORMANT_RANGE)}
      <div className="flex flex-wrap gap-4">
        {checkbox('robotize', 'Robotize')}
        {checkbox('scrambling', 'Scrambling')}
      </div>
      <p className="text-xs text-muted">
        Runs in this browser before your audio leaves it: pitch and formants shift independently.
      </p>
    </section>
  );
}

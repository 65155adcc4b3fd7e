/**
 * Sound settings (spec 000 §3): a master switch, one switch per kind of sound and a volume slider.
 * Presentational: the values come in as props and every change goes out through `onChange`.
 */
import { useId } from 'react';
import { type SoundKind, type SoundSettings } from '../lib/sounds.js';

export interface SoundSettingsPanelProps {
  settings: SoundSettings;
  onChange: (change: Partial<SoundSettings>) => void;
  /** When given, a test button plays a sample of the message sound. */
  onTest?: (kind: SoundKind) => void;
}

interface SwitchRowProps {
  label: string;
  hint: string;
  isOn: boolean;
  isDisabled?: boolean;
  onToggle: () => void;
}

function SwitchRow({ label, hint, isOn, isDisabled = false, onToggle }: SwitchRowProps) {
  const id = useId();
  return (
    <div
      className={`flex items-center justify-between gap-4 py-2 ${isDisabled ? 'opacity-60' : ''}`}
    >
      <div className="min-w-0">
        <p id={`${id}-label`} className="text-xs tracking-[0.2em] text-fg uppercase">
          {label}
        </p>
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={isOn}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        disabled={isDisabled}
        onClick={onToggle}
        className={`sc-btn min-w-20 px-2 py-1 text-xs ${isOn ? 'text-primary' : 'text-muted'}`}
      >
        {isOn ? '[ ON ]' : '[ OFF ]'}
      </button>
    </div>
  );
}

export function SoundSettingsPanel({ settings, onChange, onTest }: SoundSettingsPanelProps) {
  const volumeId = useId();
  const volumePercent = Math.round(settings.volume * 100);
  return (
    <section aria-label="Sound settings" className="sc-panel p-4 font-mono">
      <h2 className="mb-2 text-xs tracking-[0.3em] text-primary uppercase">{'// Audio alerts'}</h2>
      <SwitchRow
        label="Sounds"
        hint="Master switch for every alert tone"
        isOn={settings.enabled}
        onToggle={() => onChange({ enabled: !settings.enabled })}
      />
      <SwitchRow
        label="Message sound"
        hint="New message in the channel"
        isOn={settings.messageSound}
        isDisabled={!settings.enabled}
        onToggle={() => onChange({ messageSound: !settings.messageSound })}
      />
      <SwitchRow
        label="System sound"
        hint="Joins, leaves and system notices"
        isOn={settings.systemSound}
        isDisabled={!settings.enabled}
        onToggle={() => onChange({ systemSound: !settings.systemSound })}
      />
      <SwitchRow
        label="Auth sound"
        hint="Login and key verification"
        isOn={settings.authSound}
        isDisabled={!settings.enabled}
        onToggle={() => onChange({ authSound: !settings.authSound })}
      />
      <div className="mt-3 flex items-center gap-3">
        <label htmlFor={volumeId} className="text-xs tracking-[0.2em] text-fg uppercase">
          Volume
        </label>
        <input
          id={volumeId}
          type="range"
          min={0}
          max={1}
          step={0.1}
          value={settings.volume}
          disabled={!settings.enabled}
          aria-valuetext={`${volumePercent}%`}
          onChange={(event) => onChange({ volume: Number(event.currentTarget.value) })}
          className="h-1 flex-1 cursor-pointer accent-primary disabled:cursor-not-allowed"
        />
        <span aria-hidden="true" className="w-10 text-right text-xs text-muted tabular-nums">
          {volumePercent}%
        </span>
      </div>
      {onTest ? (
        <div className="mt-4 flex justify-end">
          <button
            type="button"
            className="sc-btn px-2 py-1 text-xs"
            disabled={!settings.enabled}
            onClick={() => onTest('message')}
          >
            [ Test sound ]
          </button>
        </div>
      ) : null}
    </section>
  );
}

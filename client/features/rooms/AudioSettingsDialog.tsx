/**
 * AUDIO: the audio interface settings dialog (spec 000 §2, §3, §5): microphone, speaker and call
 * volume, the voice disguise with its voice test, and the chat's alert sounds. Everything is
 * saved in this browser; a running call picks changes up at once.
 */
import { SoundSettingsPanel } from '../../ui/SoundSettingsPanel.js';
import { useSoundSettings } from '../../lib/use-sound-settings.js';
import {
  AudioDevicesPanel,
  useVoiceSettings,
  VoiceDisguisePanel,
  VoiceTest,
} from '../voice/index.js';
import { TerminalDialog } from '../../ui/TerminalDialog.js';

export interface AudioSettingsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AudioSettingsDialog({ open, onOpenChange }: AudioSettingsDialogProps) {
  const { settings, updateSettings, play } = useSoundSettings();
  const [voice, setVoice] = useVoiceSettings();
  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Audio interface"
      description="Devices, call volume, voice disguise and alert tones. Saved in this browser."
      windowLabel="root@securechannel:~/audio"
      testId="audio-settings-dialog"
      widthClass="max-w-xl"
    >
      <div className="space-y-4">
        <AudioDevicesPanel settings={voice} onChange={setVoice} />
        <VoiceDisguisePanel settings={voice} onChange={setVoice} />
        <VoiceTest settings={voice} />
        <SoundSettingsPanel settings={settings} onChange={updateSettings} onTest={play} />
      </div>
    </TerminalDialog>
  );
}

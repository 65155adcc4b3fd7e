/** AUDIO: the sound settings (spec 000 §3 "Sound settings") in a dialog. */
import { SoundSettingsPanel } from '../../ui/SoundSettingsPanel.js';
import { useSoundSettings } from '../../lib/use-sound-settings.js';
import { TerminalDialog } from './TerminalDialog.js';

export interface AudioSettingsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AudioSettingsDialog({ open, onOpenChange }: AudioSettingsDialogProps) {
  const { settings, updateSettings, play } = useSoundSettings();
  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Audio alerts"
      description="Which events play a tone, and how loud. Saved in this browser."
      windowLabel="root@securechannel:~/audio"
      testId="audio-settings-dialog"
    >
      <SoundSettingsPanel settings={settings} onChange={updateSettings} onTest={play} />
    </TerminalDialog>
  );
}

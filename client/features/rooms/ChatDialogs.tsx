/** The dialogs the chat screen opens from its header menu and control row; one at a time. */
import { type Room } from '../../../shared/protocol/http/rooms.js';
import { AudioSettingsDialog } from './AudioSettingsDialog.js';
import { CreateChannelDialog } from './CreateChannelDialog.js';
import { NetworkMonitorDialog } from './NetworkMonitorDialog.js';
import { SecurityProtocolsDialog } from './SecurityProtocolsDialog.js';
import { SelfDestructTimerDialog } from './SelfDestructTimerDialog.js';

export type ChatDialog = 'create' | 'timer' | 'audio' | 'network' | 'security';

export interface ChatDialogsProps {
  dialog: ChatDialog | null;
  onClose: () => void;
  room: Room | null;
  onCreated: (room: Room) => void;
}

export function ChatDialogs({ dialog, onClose, room, onCreated }: ChatDialogsProps) {
  const openChange = (which: ChatDialog) => ({
    open: dialog === which,
    onOpenChange: (open: boolean) => {
      if (!open) onClose();
    },
  });
  return (
    <>
      <CreateChannelDialog {...openChange('create')} onCreated={onCreated} />
      {room ? <SelfDestructTimerDialog {...openChange('timer')} room={room} /> : null}
      <AudioSettingsDialog {...openChange('audio')} />
      <NetworkMonitorDialog {...openChange('network')} roomId={room?.id ?? null} />
      <SecurityProtocolsDialog {...openChange('security')} />
    </>
  );
}

/**
 * The room's end-to-end encryption state for components deep in the chat screen (the Security
 * Protocols modal) that the page does not hand it to directly. Null outside a chat room.
 */
import { createContext, useContext } from 'react';
import { type RoomE2ee } from './use-room-e2ee.js';

export const RoomE2eeContext = createContext<RoomE2ee | null>(null);

/** The room's encryption state, or null outside a chat room. */
export function useRoomE2eeContext(): RoomE2ee | null {
  return useContext(RoomE2eeContext);
}

/** Placeholder during the foundation work; replaced in this same change. */
export function ChatRoomPage() {
  return null;
}

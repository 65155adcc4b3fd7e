/** Placeholder during the foundation work; replaced in this same change. */
export function DirectMessagesPage() {
  return null;
}

/**
 * The access code in an invite link's fragment (`…/room/{secureId}?auth=…#code=…`), when the
 * inviter chose to put it there. A fragment is never sent by the browser, in a request or a
 * Referer; the joining page reads it once, hands the code to the access terminal and removes the
 * fragment from the address bar and history entry at once (history.replaceState), so it is not
 * left behind for the next person at this screen, a bookmark or a copied address.
 */

/** Longest code taken from a fragment; anything longer is ignored. */
const MAX_FRAGMENT_CODE_LENGTH = 256;

/** The fragment that carries `code` (with its `#`). */
export function inviteCodeFragment(code: string): string {
  return `#code=${encodeURIComponent(code)}`;
}

/**
 * The access code of a fragment (`#code=…`, the `#` optional), or null when there is none, it is
 * empty, or it is not well formed.
 */
export function parseInviteFragment(hash: string): string | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '') return null;
  let code: string | null;
  try {
    code = new URLSearchParams(text).get('code');
  } catch {
    return null;
  }
  if (code === null || code.length === 0 || code.length > MAX_FRAGMENT_CODE_LENGTH) return null;
  return code;
}

/** True when the address has a fragment with an access code in it. */
export function hasInviteFragment(hash: string): boolean {
  return /(^#?|&)code=/.test(hash);
}

/**
 * Removes an access code fragment from the current address, keeping the path, the query and the
 * history state. Nothing happens when the address has none.
 */
export function clearInviteFragment(): void {
  if (!hasInviteFragment(window.location.hash)) return;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}

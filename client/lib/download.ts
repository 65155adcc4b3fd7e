/**
 * Saves text as a file through a Blob URL, without a server round trip: the generated key file
 * (with its private keys) exists only in this tab's memory and in the file the browser saves.
 */

/** How long the Blob URL lives after the click; the browser has started the download by then. */
const REVOKE_AFTER_MS = 1000;

export function downloadTextFile(
  fileName: string,
  text: string,
  type = 'application/octet-stream',
): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

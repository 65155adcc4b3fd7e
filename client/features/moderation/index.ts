/**
 * The moderation feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { memberActions } from './member-actions.js';
export { resolveModerationCommand } from './moderation-commands.js';
export { ModerationToolbar } from './ModerationToolbar.js';
export { useModeration } from './use-moderation.js';

/** Loads ModerationLogDialog.tsx on demand: it keeps a chunk of its own. */
export function loadModerationLogDialog() {
  return import('./ModerationLogDialog.js');
}

/** Loads MemberMenu.tsx on demand: it keeps a chunk of its own. */
export function loadMemberMenu() {
  return import('./MemberMenu.js');
}

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

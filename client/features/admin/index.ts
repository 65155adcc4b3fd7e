/**
 * The admin feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { BotChallengeDialog } from './BotChallengeDialog.js';
export { EmergencyAdminPanel } from './EmergencyAdminPanel.js';
export { createMaintenanceConsole, type MaintenanceConsole } from './maintenance-console.js';
export { ServiceRestoredBanner } from './ServiceRestoredBanner.js';
export { useBotChallenge } from './use-bot-challenge.js';
export { useServiceRestored } from './use-service-restored.js';

/** Loads ChatAdminTools.tsx on demand: it keeps a chunk of its own. */
export function loadChatAdminTools() {
  return import('./ChatAdminTools.js');
}

/** Loads AdminAccessDialog.tsx (the landing page's ADMIN link) on demand. */
export function loadAdminAccessDialog() {
  return import('./AdminAccessDialog.js');
}

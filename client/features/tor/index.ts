/**
 * The tor feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { BridgeConfigCard } from './BridgeConfigCard.js';
export {
  connectTor,
  fetchTorAdminStatus,
  fetchTorLogs,
  runTorAction,
  type TorAction,
} from './tor-api.js';
export { TorAdminControls } from './TorAdminControls.js';
export { formatBytes, formatReachability } from './tor-progress.js';

/** Loads TorAdminOverlay.tsx on demand: it keeps a chunk of its own. */
export function loadTorAdminOverlay() {
  return import('./TorAdminOverlay.js');
}

/**
 * Loads TorVisitorStatus.tsx on demand (the public onion-service line for every visitor): its
 * schemas stay out of the page's first load.
 */
export function loadTorVisitorStatus() {
  return import('./TorVisitorStatus.js');
}

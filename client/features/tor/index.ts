export { BridgeConfigCard } from './BridgeConfigCard.js';
export {
  connectTor,
  fetchTorAdminStatus,
  fetchTorLogs,
  runTorAction,
  type TorAction,
} from './tor-api.js';
export { TorAdminControls } from './TorAdminControls.js';

/** Loads TorAdminOverlay.tsx on demand: it keeps a chunk of its own. */
export function loadTorAdminOverlay() {
  return import('./TorAdminOverlay.js');
}

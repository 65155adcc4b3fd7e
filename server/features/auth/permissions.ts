/** Permission checks (spec 000 §6): admin has every permission; others only their capabilities. */
import type { KeyCapability, KeyPermissionLevel } from '../../../shared/crypto/key-file-schema.js';

export interface Permissioned {
  permissions: { level: KeyPermissionLevel; capabilities: readonly string[] };
}

/** No user means no permission. */
export function hasPermission(principal: Permissioned | null, capability: KeyCapability): boolean {
  if (!principal) return false;
  if (principal.permissions.level === 'admin') return true;
  return principal.permissions.capabilities.includes(capability);
}

/** The four clearances of spec 000 §3, in the order the create form offers them. */
import { type SecurityLevel } from '../../../shared/protocol/http/rooms.js';

export const SECURITY_LEVEL_OPTIONS: readonly { value: SecurityLevel; label: string }[] = [
  { value: 'public', label: 'PUBLIC' },
  { value: 'restricted', label: 'RESTRICTED' },
  { value: 'classified', label: 'CLASSIFIED' },
  { value: 'top_secret', label: 'TOP SECRET' },
];

/** Upper-case label of a clearance. */
export function securityLevelLabel(level: SecurityLevel): string {
  return SECURITY_LEVEL_OPTIONS.find((option) => option.value === level)?.label ?? 'PUBLIC';
}

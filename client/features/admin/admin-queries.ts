/** TanStack Query keys of the admin screens. */
export const adminQueryKeys = {
  all: ['admin'] as const,
  serviceStatus: ['admin', 'service-status'] as const,
  keys: ['admin', 'keys'] as const,
  audit: ['admin', 'audit'] as const,
};

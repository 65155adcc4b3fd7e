/**
 * Every route shows the shutdown notice while the service is down (spec 001 §2, issue 21): not
 * only the pages whose socket was told, but `/` (whose default-room call answers 503), the
 * landing page, the key purchase page and every other. The notice is rendered in place, so the
 * URL stays the user's, and the notice returns there by itself once the service is restored.
 *
 * Once shown, the notice stays until it reloads the page itself: the routes underneath may
 * have failed their calls while the service was down, and a fresh load starts them cleanly.
 */
import { Suspense, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { lazyComponent } from '../../lib/lazy-component.js';
import { isNoticePath, useServiceStatus } from '../../lib/session/service-status.js';

// The notice is needed only while the service is down: its chunk is fetched then (issue 22,
// target 5: nothing the first paint does not need is in the entry).
const EmergencyShutdownPage = lazyComponent(
  () => import('./EmergencyShutdownPage.js'),
  'EmergencyShutdownPage',
);

export function ServiceStateGate({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const status = useServiceStatus();
  const [downAt, setDownAt] = useState<string | null>(null);
  if (isNoticePath(location)) return <>{children}</>;
  const isDown = status?.status === 'emergency';
  if (isDown && downAt === null) {
    // Where the user was: the notice brings them back here.
    setDownAt(window.location.pathname + window.location.search);
  }
  if (downAt !== null || isDown) {
    return (
      <Suspense fallback={null}>
        <EmergencyShutdownPage returnTo={downAt ?? location} />
      </Suspense>
    );
  }
  return <>{children}</>;
}

/**
 * Routes and access gating (spec 001 §2 "Routing and access gating"). Without an access mode only
 * /landing and /get-key are reachable; every other path leads to /landing. While the service is
 * shut down every route shows the shutdown notice (ServiceStateGate).
 */
import { Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { LoadingOverlay } from '../ui/LoadingOverlay.js';
import { useAuth } from '../lib/session/use-auth.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { NotFoundPage } from './NotFoundPage.js';
import { lazyComponent as lazyPage } from '../lib/lazy-component.js';
import { useAccessMode } from '../lib/session/use-access-mode.js';
import { ServerTrustGate } from '../features/privacy/index.js';
import { ServiceStateGate } from '../features/service-state/index.js';

// Each page, with its feature code and crypto, is its own chunk, fetched when its route renders
// (issue 22, target 5). Only the router, the providers and the smallest pages load up front.
const LandingPage = lazyPage(() => import('../features/landing/LandingPage.js'), 'LandingPage');
const PurchasePage = lazyPage(() => import('../features/purchase/PurchasePage.js'), 'PurchasePage');
const ChatRoomPage = lazyPage(() => import('../features/rooms/ChatRoomPage.js'), 'ChatRoomPage');
const ChannelDestroyedPage = lazyPage(
  () => import('../features/rooms/ChannelDestroyedPage.js'),
  'ChannelDestroyedPage',
);
const EmergencyShutdownPage = lazyPage(
  () => import('../features/service-state/EmergencyShutdownPage.js'),
  'EmergencyShutdownPage',
);
const MaintenancePage = lazyPage(
  () => import('../features/service-state/MaintenancePage.js'),
  'MaintenancePage',
);
const ThemesPage = lazyPage(() => import('../features/themes/ThemesPage.js'), 'ThemesPage');
const DirectMessagesPage = lazyPage(
  () => import('../features/dm/DirectMessagesPage.js'),
  'DirectMessagesPage',
);
const PongPage = lazyPage(() => import('../features/pong/PongPage.js'), 'PongPage');
const KeyAuthPage = lazyPage(() => import('../features/auth/KeyAuthPage.js'), 'KeyAuthPage');
// `/` asks for the default room, then redirects: its call and schema come with it, not the entry.
const DefaultRoomRedirect = lazyPage(
  () => import('../features/rooms/DefaultRoomRedirect.js'),
  'DefaultRoomRedirect',
);

/** `/`: the redirect's own loading text shows from the start, while its chunk loads too. */
function DefaultRoomRoute() {
  return (
    <Suspense fallback={<LoadingOverlay isLoading message={TEXT.initializingChannels} />}>
      <DefaultRoomRedirect />
    </Suspense>
  );
}

/** Shown while a page's chunk loads. */
function PageLoading() {
  return <LoadingOverlay isLoading message={TEXT.loading} />;
}

function UngatedRoutes() {
  return (
    <Switch>
      <Route path="/landing" component={LandingPage} />
      <Route path="/get-key" component={PurchasePage} />
      <Route>
        <Redirect to="/landing" replace />
      </Route>
    </Switch>
  );
}

/** Paths open to everyone in every mode: the landing page and the key purchase (spec 000 §2). */
const OPEN_PATHS = new Set(['/landing', '/get-key']);

/**
 * In authenticated mode a visitor who is neither authenticated nor authenticating sees the key
 * authentication page (spec 001 §2), on every path but /landing and /get-key: a key holder whose
 * session lapsed can still go back to the landing page or buy a key.
 */
function GatedRoutes({ mode }: { mode: 'public' | 'authenticated' }) {
  const { isAuthenticated, isAuthenticating, isLoading } = useAuth();
  const [location] = useLocation();
  const isOpenPath = OPEN_PATHS.has(location);
  if (mode === 'authenticated' && isLoading && !isOpenPath)
    return <LoadingOverlay isLoading message={TEXT.loading} />;
  if (mode === 'authenticated' && !isAuthenticated && !isAuthenticating && !isOpenPath)
    return <KeyAuthPage />;
  return (
    <Switch>
      <Route path="/" component={DefaultRoomRoute} />
      <Route path="/chat/:secureId" component={ChatRoomPage} />
      <Route path="/room/:secureId" component={ChatRoomPage} />
      <Route path="/landing" component={LandingPage} />
      <Route path="/get-key" component={PurchasePage} />
      <Route path="/themes" component={ThemesPage} />
      <Route path="/direct-messages" component={DirectMessagesPage} />
      <Route path="/pong" component={PongPage} />
      <Route path="/channel-destroyed" component={ChannelDestroyedPage} />
      <Route path="/emergency-shutdown">
        <EmergencyShutdownPage />
      </Route>
      <Route path="/maintenance-mode" component={MaintenancePage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function App() {
  const { mode, switching } = useAccessMode();
  return (
    <ServerTrustGate>
      <ServiceStateGate>
        <Suspense fallback={<PageLoading />}>
          {mode === null ? <UngatedRoutes /> : <GatedRoutes mode={mode} />}
        </Suspense>
      </ServiceStateGate>
      <LoadingOverlay isLoading={switching !== null} message={switching ?? undefined} />
    </ServerTrustGate>
  );
}

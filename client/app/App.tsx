/**
 * Routes and access gating (spec 001 §2 "Routing and access gating"). Without an access mode only
 * /landing and /get-key are reachable; every other path leads to /landing. While the service is
 * shut down every route shows the shutdown notice (ServiceStateGate).
 */
import { Redirect, Route, Switch } from 'wouter';
import { LoadingOverlay } from '../ui/LoadingOverlay.js';
import { LandingPage } from '../features/landing/LandingPage.js';
import { PurchasePage } from '../features/purchase/PurchasePage.js';
import { DefaultRoomRedirect } from '../features/rooms/DefaultRoomRedirect.js';
import { ChatRoomPage } from '../features/rooms/ChatRoomPage.js';
import { ChannelDestroyedPage } from '../features/rooms/ChannelDestroyedPage.js';
import { EmergencyShutdownPage } from '../features/service-state/EmergencyShutdownPage.js';
import { MaintenancePage } from '../features/service-state/MaintenancePage.js';
import { ThemesPage } from '../features/themes/ThemesPage.js';
import { DirectMessagesPage } from '../features/dm/DirectMessagesPage.js';
import { PongPage } from '../features/pong/PongPage.js';
import { KeyAuthPage } from '../features/auth/KeyAuthPage.js';
import { useAuth } from '../features/auth/use-auth.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { NotFoundPage } from './NotFoundPage.js';
import { useAccessMode } from './use-access-mode.js';
import { ServerTrustGate } from '../features/privacy/ServerTrustGate.js';
import { ServiceStateGate } from '../features/service-state/ServiceStateGate.js';

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

/**
 * In authenticated mode a visitor who is neither authenticated nor authenticating sees the key
 * authentication page, whatever the path (spec 001 §2).
 */
function GatedRoutes({ mode }: { mode: 'public' | 'authenticated' }) {
  const { isAuthenticated, isAuthenticating, isLoading } = useAuth();
  if (mode === 'authenticated' && isLoading)
    return <LoadingOverlay isLoading message={TEXT.loading} />;
  if (mode === 'authenticated' && !isAuthenticated && !isAuthenticating) return <KeyAuthPage />;
  return (
    <Switch>
      <Route path="/" component={DefaultRoomRedirect} />
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
        {mode === null ? <UngatedRoutes /> : <GatedRoutes mode={mode} />}
      </ServiceStateGate>
      <LoadingOverlay isLoading={switching !== null} message={switching ?? undefined} />
    </ServerTrustGate>
  );
}

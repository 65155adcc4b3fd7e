/** Mounts the providers (query client, theme, auth, toasts) and the router. */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './app/App.js';
import { createQueryClient } from './lib/query-client.js';
import { ThemeProvider } from './features/themes/index.js';
import { AuthProvider } from './features/auth/index.js';
import { setRequestGate } from './lib/http.js';
import { lazyComponent } from './lib/lazy-component.js';
import { getServerTrust, serverTrustRefusal } from './lib/privacy/server-trust.js';
import { installScrollbarAutoHide } from './lib/scrollbar-autohide.js';
import './styles.css';

// The server's identity is checked before anything else goes to it (DESIGN.md "Server identity").
setRequestGate(serverTrustRefusal);
void getServerTrust().verify();
installScrollbarAutoHide();

// The toast region (Radix Toast) loads after the first paint; toasts raised meanwhile wait in the
// toast store and show once it has mounted.
const Toaster = lazyComponent(() => import('./ui/Toaster.js'), 'Toaster');

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <AuthProvider>
          <App />
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  </StrictMode>,
);

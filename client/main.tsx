/** Mounts the providers (query client, theme, tooltips, toasts) and the router. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './app/App.js';
import { createQueryClient } from './lib/query-client.js';
import { ThemeProvider } from './features/themes/ThemeProvider.js';
import { AuthProvider } from './features/auth/AuthProvider.js';
import { Toaster } from './ui/Toaster.js';
import { TooltipProvider } from './ui/Tooltip.js';
import { setRequestGate } from './lib/http.js';
import { getServerTrust, serverTrustRefusal } from './features/privacy/server-trust.js';
import { installScrollbarAutoHide } from './lib/scrollbar-autohide.js';
import './styles.css';

// The server's identity is checked before anything else goes to it (DESIGN.md "Server identity").
setRequestGate(serverTrustRefusal);
void getServerTrust().verify();
installScrollbarAutoHide();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <AuthProvider>
          <TooltipProvider>
            <App />
            <Toaster />
          </TooltipProvider>
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  </StrictMode>,
);

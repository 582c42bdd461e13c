import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import '@fontsource-variable/inter';
import './index.css';
import { AppProviders } from './app/providers';
import { router } from './app/router';
import { registerServiceWorker } from './lib/service-worker';
import { initTheme } from './lib/theme';

// Before the first render, so the page never flashes the wrong theme.
initTheme();

const container = document.getElementById('root');
if (!container) throw new Error('Falta el elemento #root');

registerServiceWorker();

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { AppShell } from './layout/app-shell';
import { RequireAdmin, RequireAuth } from './routes/guards';
import { RouteError } from './routes/route-error';

type LazyModule = Promise<{ default: React.ComponentType }>;

// Each screen is its own chunk: the login page must not download the dashboard.
function screen(load: () => LazyModule): Pick<RouteObject, 'lazy' | 'errorElement'> {
  return {
    lazy: async () => ({ Component: (await load()).default }),
    errorElement: <RouteError />,
  };
}

const routes: RouteObject[] = [
  {
    path: '/',
    element: <Outlet />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: 'login', ...screen(() => import('./routes/login')) },
      {
        element: <RequireAuth />,
        errorElement: <RouteError />,
        children: [
          // The control-room wall: signed in, but without the menu and header of the app shell.
          { path: 'wall', ...screen(() => import('./routes/wall')) },
          {
            element: <AppShell />,
            errorElement: <RouteError />,
            children: [
              { index: true, ...screen(() => import('./routes/dashboard')) },
              { path: 'devices', ...screen(() => import('./routes/devices')) },
              { path: 'alarms', ...screen(() => import('./routes/alarms')) },
              { path: 'overflows', ...screen(() => import('./routes/overflows')) },
              { path: 'reports', ...screen(() => import('./routes/reports')) },
              { path: 'map', ...screen(() => import('./routes/map')) },
              { path: 'sites/:id', ...screen(() => import('./routes/site')) },
              { path: 'sites/:id/edit', ...screen(() => import('./routes/site-edit')) },
              { path: 'account/password', ...screen(() => import('./routes/change-password')) },
              { path: 'account/notifications', ...screen(() => import('./routes/my-notifications')) },
              { path: 'account/security', ...screen(() => import('./routes/account-security')) },
              {
                element: <RequireAdmin />,
                errorElement: <RouteError />,
                children: [
                  { path: 'users', ...screen(() => import('./routes/users')) },
                  { path: 'audit', ...screen(() => import('./routes/audit')) },
                  { path: 'notifications', ...screen(() => import('./routes/notifications')) },
                  { path: 'manual', ...screen(() => import('./routes/manual')) },
                  { path: 'interlocks', ...screen(() => import('./routes/interlocks')) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

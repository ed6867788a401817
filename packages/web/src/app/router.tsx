import { createBrowserRouter } from 'react-router-dom';
import { Layout } from './Layout.tsx';
import { RequireSession } from './RequireSession.tsx';
import { RouteError } from './RouteError.tsx';
import { NotFoundPage, routes } from './routes.tsx';

export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      ...routes.map(({ path, access, Page }) => ({
        path,
        element:
          access === 'signed-in' ? (
            <RequireSession key={path}>
              <Page />
            </RequireSession>
          ) : (
            <Page />
          ),
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

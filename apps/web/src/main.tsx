import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { ApiError } from './api/client';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500) },
  },
});

// index.html carries the mount point; without it there is no page to render into.
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to mount the app in');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);

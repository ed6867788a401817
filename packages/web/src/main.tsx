import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { joinSessionChannel } from './lib/session.ts';

// A duplicated tab shares its session with the original: listen for its token refreshes and logout.
joinSessionChannel();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

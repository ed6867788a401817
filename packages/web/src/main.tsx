import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { joinSessionChannel } from './lib/session.ts';

// Every tab of the browser holds its one sign-in: a new tab asks the open ones for it (decision 0705).
joinSessionChannel();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The theme's typeface ships with the app, so text is as wide on every machine as the grids are sized for
// (decision 0604); weights of the theme: regular, medium, bold.
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
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

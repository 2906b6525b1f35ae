import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/shell/App.tsx';
import './ui/theme.css';

// The harness core (and zod) run in the load worker; the page only renders.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

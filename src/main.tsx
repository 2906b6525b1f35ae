import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/shell/App.tsx';
import './ui/theme.css';
import { isSingleFile } from './store/single-file-page.ts';

// The harness core (and zod) run in the load worker; the page only renders.
// Offline after the first visit (public/sw.js caches the app shell, never a log).
// The single-file app (docs/share-and-privacy.md) is one file already, often opened from file://: no service worker.
if (import.meta.env.PROD && 'serviceWorker' in navigator && !isSingleFile()) {
  navigator.serviceWorker.register('./sw.js').catch(() => { /* offline support is optional */ });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

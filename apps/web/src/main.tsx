import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Boot } from './app/Boot';
import { AppProviders } from './app/providers';
import { handOverServerPage } from './app/ssr-handover';
import { ssrMarkup } from './app/ssr-markup';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const start = () =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <Boot />
      </AppProviders>
    </StrictMode>,
  );

// The page the server rendered is painted before the app's first render (a long task) starts: the reader
// sees the data one frame after the HTML arrives, not after the app's render.
// A click on the server's page (inert until then) is replayed on the app's once it shows.
const markup = ssrMarkup();
if (markup) {
  handOverServerPage(markup, container);
  requestAnimationFrame(() => setTimeout(start, 0));
} else start();

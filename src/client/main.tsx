import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// TODO(client): providers, router and screens (src/client/app).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main>Trapline</main>
  </StrictMode>,
);

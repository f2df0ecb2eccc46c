/**
 * The browser quickstart's Vite configuration. Its server (`vite` in development, `vite preview`
 * for the build) plays the application's backend: it serves the page, and forwards
 * /api/animal-store/v1 to the Animal Store with the API key added, so the key stays on the server
 * and never reaches the bundle.
 *
 *   npm run example -- browser
 *   PETSTORE_BASE_URL=https://… PETSTORE_API_KEY=… npm run example -- browser
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { openTarget } from '../support/target.js';

/** The route of the page's own origin that stands for the Animal Store. */
export const ROUTE = '/api/animal-store/v1';

export default defineConfig(async () => {
  // The service named by PETSTORE_BASE_URL and PETSTORE_API_KEY, or an embedded fake one.
  const target = await openTarget();
  const service = new URL(target.baseUrl);
  const route: ProxyOptions = {
    target: service.origin,
    changeOrigin: true,
    rewrite: (path) => service.pathname.replace(/\/$/, '') + path.slice(ROUTE.length),
    // The backend's whole job here: the key, added on the server. A real backend would also check
    // who the page's user is before spending the key on them.
    headers: { Authorization: `Bearer ${target.apiKey}` },
  };
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    server: { proxy: { [ROUTE]: route } },
    preview: { proxy: { [ROUTE]: route } },
    build: { target: 'es2022' },
    // The embedded fake service, if any, stops with the server or after a build.
    plugins: [
      {
        name: 'stop-the-service',
        closeBundle: () => target.close(),
        configureServer: (server) => void server.httpServer?.once('close', () => void target.close()),
        configurePreviewServer: (server) => void server.httpServer.once('close', () => void target.close()),
      } satisfies Plugin,
    ],
  };
});

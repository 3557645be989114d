import type { Context, Hono } from 'hono';
import { loadStudioAssets } from './studio-assets.js';
import { missingBundlePage, studioPage } from './studio-page.js';

/**
 * Serves the studio page under `/studio` and the one call it needs beyond the API every server has,
 * `GET /v1/agents` (the agent names, behind the same bearer auth as the rest of `/v1`). The chat also
 * needs the session routes (`createApp({ sessions })`) and the trace view the replay route.
 * The page itself carries no secret, so it is served without a token; it asks for one.
 * `runs` is typed by the one method used, so studio/ does not import server/ back (server mounts these routes).
 */
export function studioRoutes(app: Hono, runs: { agentNames(): string[] }): void {
  const assets = loadStudioAssets();
  const html = assets.script === undefined ? missingBundlePage() : studioPage();
  const page = (c: Context) => c.html(html, assets.script === undefined ? 500 : 200, { 'Cache-Control': 'no-store' });
  app.get('/studio', page);
  app.get('/studio/', page);
  app.get('/studio/app.js', (c) =>
    assets.script === undefined
      ? c.text('studio bundle missing: run npm run build', 404)
      : c.body(assets.script, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }),
  );
  app.get('/v1/agents', (c) => c.json({ agents: runs.agentNames() }));
}

/**
 * The Angular chat's backend (../backend.mjs): serves the built app (`ng build` → dist/browser),
 * tells it where the agent is, and derives each thread's A2A contextId, so the identity secret never
 * reaches the browser. The app asks for the contextId inside each turn (a2aConversation's `contextId`).
 *
 *     node examples/angular/server.mjs [--agent URL] [--port N]
 *
 *   GET /                          the app (dist/browser/index.html)
 *   GET /<file>                    a file of dist/browser (its hashed bundles), by name: no directory is exposed
 *   GET /api/config                { "agent": "<agent base URL>", "handle": "web" }
 *   GET /api/context?thread=KEY    { "thread": KEY, "contextId": deriveContextId(secret, 'web', KEY) }
 *
 * `ng serve` (port 4200) proxies /api here (proxy.conf.json: start this on --port 4300).
 */
import { access, readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainOf, startExampleBackend, TYPES } from '../backend.mjs';

/** Where `ng build` puts the app. */
export const BROWSER_DIR = fileURLToPath(new URL('dist/browser/', import.meta.url));

const MISSING = 'run npm run example:angular:build';

/** The file for a URL path: `/` is index.html; otherwise a plain file name that `ng build` wrote. */
async function fileOf(path) {
  const name = path === '/' ? 'index.html' : path.slice(1);
  const type = TYPES[extname(name)];
  if (type === undefined || !/^[\w][\w.-]*$/.test(name)) return undefined;
  const built = await readdir(BROWSER_DIR).catch(() => []);
  if (name !== 'index.html' && !built.includes(name)) return undefined;
  return { file: join(BROWSER_DIR, name), type };
}

/**
 * Starts the server; resolves with its URL (trailing slash) and `close()`.
 * @param {{ agent?: string; port?: number; host?: string; secret?: string; log?: (line: string) => void }} [options]
 */
export function startAngularChatServer(options = {}) {
  return startExampleBackend({ ...options, files: fileOf, missing: MISSING });
}

mainOf(import.meta, {
  name: 'angular chat',
  command: 'node examples/angular/server.mjs',
  missing: MISSING,
  built: () =>
    access(join(BROWSER_DIR, 'index.html')).then(
      () => true,
      () => false,
    ),
  start: startAngularChatServer,
});

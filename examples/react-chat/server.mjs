/**
 * The React chat's backend (../backend.mjs): serves the page and its bundle, tells the page where the
 * agent is, and derives each conversation's A2A contextId, so the identity secret never reaches the browser.
 *
 *     node examples/react-chat/server.mjs [--agent URL] [--port N]
 *
 *   GET /                          the page (index.html, style.css, dist/main.js)
 *   GET /api/config                { "agent": "<agent base URL>", "handle": "web" }
 *   GET /api/context?thread=KEY    { "thread": KEY, "contextId": deriveContextId(secret, 'web', KEY) }
 */
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { mainOf, startExampleBackend, TYPES } from '../backend.mjs';

export { DEFAULT_AGENT, DEMO_SECRET, HANDLE } from '../backend.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** The only files served, by URL path: no directory is exposed. */
const FILES = {
  '/': { file: here('index.html'), type: TYPES['.html'] },
  '/index.html': { file: here('index.html'), type: TYPES['.html'] },
  '/style.css': { file: here('style.css'), type: TYPES['.css'] },
  '/dist/main.js': { file: here('dist/main.js'), type: TYPES['.js'] },
  '/dist/main.js.map': { file: here('dist/main.js.map'), type: TYPES['.map'] },
};

const MISSING = 'run node examples/react-chat/build.mjs';

/**
 * Starts the server; resolves with its URL (trailing slash) and `close()`.
 * @param {{ agent?: string; port?: number; host?: string; secret?: string; log?: (line: string) => void }} [options]
 */
export function startReactChatServer(options = {}) {
  return startExampleBackend({ ...options, files: async (path) => FILES[path], missing: MISSING });
}

mainOf(import.meta, {
  name: 'react chat',
  command: 'node examples/react-chat/server.mjs',
  missing: MISSING,
  built: () =>
    access(FILES['/dist/main.js'].file).then(
      () => true,
      () => false,
    ),
  start: startReactChatServer,
});

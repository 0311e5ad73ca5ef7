/**
 * The examples' backend: serves a page's files, tells the page where the agent is, and derives each
 * conversation's A2A contextId, so the identity secret never reaches the browser. The web chat
 * (web-chat/server.mjs) and the Angular chat (angular/server.mjs) each run it with their own files.
 *
 *   GET /api/config                { "agent": "<agent base URL>", "handle": "web" }
 *   GET /api/context?thread=KEY    { "thread": KEY, "contextId": deriveContextId(secret, 'web', KEY) }
 *   GET <a file of the page>       only the files the example names: no directory is exposed
 *
 * The secret is A4H_IDENTITY_SECRET, or the demo's public one when that is unset. The page sends
 * its messages straight to the agent (the demo agent allows any origin); in production this backend
 * would also decide who may use which thread, since the contextId is what the agent keys memory on.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { exampleArgs, usageError } from './args.mjs';
// The built library (`npm run build`); an app would write `from 'a4h-a2a'`.
import { deriveContextId } from '../dist/index.js';
import { startedAs } from './started-as.mjs';

/** The demo's identity secret (the same as `npm start`'s, demo/start.ts): public on purpose, for the demo only. */
export const DEMO_SECRET = 'a4h-demo-secret-not-for-production';
/** The agent handle the contextId is derived with (the pages use it too, from /api/config). */
export const HANDLE = 'web';
/** The demo agent's usual address (`npm run demo-agent`). */
export const DEFAULT_AGENT = 'http://127.0.0.1:41241/';
/** Longest thread key accepted. */
const MAX_THREAD = 200;

/** Content types by file extension, for the files the examples serve. */
export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
};

/**
 * Starts the backend; resolves with its URL (trailing slash) and `close()`.
 * @param {{ files: (path: string) => Promise<{ file: string; type: string } | undefined>; missing: string;
 *   agent?: string; port?: number; host?: string; secret?: string; log?: (line: string) => void }} options
 *   `files` maps a URL path to the file served for it (undefined: 404); `missing` says how to build the page.
 */
export async function startExampleBackend(options) {
  const agent = new URL(options.agent ?? DEFAULT_AGENT).href;
  const secret = options.secret || process.env.A4H_IDENTITY_SECRET || DEMO_SECRET;
  const log = options.log ?? (() => {});

  const server = createServer(async (req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
      res.end(body);
    };
    const json = (status, value) => send(status, 'application/json; charset=utf-8', JSON.stringify(value));
    try {
      if (!req.url?.startsWith('/')) return json(400, { error: 'the request target must be a path' });
      const url = new URL(`http://localhost${req.url}`); // not new URL(req.url, base): `//x` would be a host
      if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'only GET' });
      if (url.pathname === '/api/config') return json(200, { agent, handle: HANDLE });
      if (url.pathname === '/api/context') {
        const thread = url.searchParams.get('thread') ?? '';
        if (thread === '' || thread.length > MAX_THREAD) {
          return json(400, { error: `thread must be 1 to ${MAX_THREAD} characters` });
        }
        const contextId = await deriveContextId(secret, HANDLE, thread);
        log(`context for thread ${JSON.stringify(thread)}: ${contextId.slice(0, 8)}…`);
        return json(200, { thread, contextId });
      }
      const entry = await options.files(url.pathname);
      if (entry === undefined) return json(404, { error: 'not found' });
      send(200, entry.type, await readFile(entry.file));
    } catch (error) {
      const missing = error?.code === 'ENOENT';
      json(missing ? 404 : 500, { error: missing ? `the page is not built: ${options.missing}` : String(error?.message ?? error) });
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address();
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}/`;
  let closing;
  return {
    url,
    agent,
    close() {
      closing ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * The command line of an example's server: `--agent URL`, `--port N`, `--help`; runs until Ctrl+C.
 * @param {{ name: string; command: string; built: () => Promise<boolean>; missing: string;
 *   start: (options: { agent?: string; port: number; log: (line: string) => void }) => Promise<{ url: string; agent: string; close(): Promise<void> }> }} example
 */
export async function runExampleBackend(example) {
  const usage =
    `Usage: ${example.command} [--agent URL] [--port N]\n` +
    `  --agent URL   the A2A agent the page talks to (default ${DEFAULT_AGENT})\n` +
    '  --port N      port to listen on, on 127.0.0.1 (default 0: a free one, printed)';
  const { values } = exampleArgs(usage, { options: { agent: { type: 'string' }, port: { type: 'string' } } });
  const port = Number(values.port ?? '0');
  if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port < 0 || port > 65_535)
    usageError(usage, `--port must be 0 to 65535, not ${values.port}`);
  if (!process.env.A4H_IDENTITY_SECRET) {
    process.stderr.write(`${example.name}: using the public demo identity secret (set A4H_IDENTITY_SECRET to use your own)\n`);
  }
  if (!(await example.built())) {
    process.stderr.write(`${example.name}: the page is not built yet; ${example.missing} first\n`);
    process.exitCode = 1;
    return;
  }
  const server = await example.start({
    port,
    ...(values.agent ? { agent: values.agent } : {}),
    log: (line) => process.stderr.write(`${example.name}: ${line}\n`),
  });
  process.stdout.write(`${example.name} on ${server.url} (agent ${server.agent})\n`);
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void server.close();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Runs `runExampleBackend(example)` when `meta` is the module Node was started with. */
export function mainOf(meta, example) {
  if (!startedAs(meta)) return;
  runExampleBackend(example).catch((error) => {
    process.stderr.write(`${example.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

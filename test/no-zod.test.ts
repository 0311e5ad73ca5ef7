/**
 * The library reads cards, JWKS and options with readers of its own: a process that makes a client,
 * checks an agent's card and runs a turn loads no module of zod (some 90 modules, its locales among
 * them: about 13 MB of memory). Run on the built package, in a process of its own, with a module hook
 * that reports every zod module loaded.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1Agent, type FixtureAgent } from '../fixtures/index.js';
import { ROOT } from './packed.js';

const HOOK = `export async function load(url, context, next) {
  if (url.includes('/node_modules/zod/')) process.stderr.write('zod loaded: ' + url + '\\n');
  return next(url, context);
}`;

describe('a client that reads a card and runs a turn', () => {
  let dir: string;
  let agent: FixtureAgent;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/node/index.js'))) throw new Error('dist/node/index.js is missing: run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'a4h-no-zod-'));
    writeFileSync(join(dir, 'hook.mjs'), HOOK);
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});\n`,
    );
    agent = await startV1Agent();
  });
  afterAll(async () => {
    await agent?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('loads no zod', async () => {
    const script = join(dir, 'turn.mjs');
    writeFileSync(
      script,
      `const { resolvePolicy } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)});
const { createA2A } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/node/index.js')).href)});
resolvePolicy({ idleTimeoutMs: 60_000, reconnect: { maxAttempts: 2 } });
const a2a = createA2A({ identitySecret: 'x'.repeat(32), trust: { jwks: { keys: [] } } });
const events = [];
await new Promise((resolve, reject) =>
  a2a.turn({ agent: ${JSON.stringify(agent.url('/'))}, handle: 'u', thread: 't', text: 'hello' }).subscribe({ next: (e) => events.push(e), error: reject, complete: resolve }),
);
await a2a.close();
process.stdout.write(JSON.stringify(events.at(-1)));`,
    );
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', pathToFileURL(join(dir, 'register.mjs')).href, script],
        { cwd: ROOT, timeout: 30_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out, stderr: err })),
      ),
    );
    expect(JSON.parse(stdout)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(stderr).not.toContain('zod loaded');
  });
});

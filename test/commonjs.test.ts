/**
 * CommonJS consumers of the packed package: a Jest 30 project with Jest's defaults (its CommonJS
 * runtime, which loads no ES module from node_modules) requires the three entries and runs turns, one
 * over the fake port of `a4h-a2a/testing` and one over real HTTP to a fixture agent on 127.0.0.1;
 * plain `require()` under Node; and an app holding both builds (ESM and CommonJS) at once.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoReply, startV1Agent, type FixtureAgent } from '../fixtures/index.js';
import { packConsumer, ROOT, type Packed } from './packed.js';

const JEST = join(ROOT, 'node_modules/jest/bin/jest.js');
const AGENT_TEXT = 'hello from jest';

/** The consumer's one test file: plain CommonJS, as ts-jest emits it for a NestJS or Angular project. */
const CONSUMER_TEST = String.raw`
const { A2AError, isA2AError, runTurn } = require('a4h-a2a');
const { createA2A, createNodeFetch } = require('a4h-a2a/node');
const { createFakePort, ev, testCard } = require('a4h-a2a/testing');
const { lastValueFrom, of, toArray } = require('rxjs');

const all = (turn$) => lastValueFrom(turn$.pipe(toArray()));

test('Jest loads the CommonJS build', () => {
  expect(require.resolve('a4h-a2a')).toMatch(/dist[\\/]cjs[\\/]index\.js$/);
  expect(typeof createNodeFetch).toBe('function');
});

test('a turn over the fake port', async () => {
  const port = createFakePort({
    card: () => of(testCard()),
    stream: () => of(ev.task('t1', 'working'), ev.artifact('t1', 'a1', 'hello'), ev.status('t1', 'completed')),
  });
  const events = await all(runTurn(port, { text: 'hi' }));
  expect(port.calls.map((call) => call.method)).toEqual(['card', 'stream']);
  expect(events[0]).toMatchObject({ type: 'start' });
  expect(events).toContainEqual(expect.objectContaining({ type: 'text', text: 'hello' }));
  expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'hello' });
});

test('a turn over HTTP to an agent on 127.0.0.1', async () => {
  const a2a = createA2A({ identitySecret: 'a jest consumer secret, 32 bytes' });
  try {
    const events = await all(a2a.turn({ agent: process.env.A4H_AGENT_URL, handle: 'h', thread: 'jest', text: process.env.A4H_AGENT_TEXT }));
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: process.env.A4H_AGENT_REPLY });
  } finally {
    await a2a.close();
  }
});

test('errors are A2AErrors, by instanceof and by isA2AError', async () => {
  const a2a = createA2A({ identitySecret: 'a jest consumer secret, 32 bytes' });
  const error = await all(a2a.turn({ agent: 'not a url', handle: 'h', thread: 'jest', text: 'hi' })).catch((e) => e);
  await a2a.close();
  expect(error).toBeInstanceOf(A2AError);
  expect(isA2AError(error, 'input')).toBe(true);
});
`;

let packed: Packed;
let agent: FixtureAgent;

beforeAll(async () => {
  packed = packConsumer('a4h-cjs-');
  // A CommonJS project (no "type"), Jest's defaults but for a cache of its own.
  writeFileSync(join(packed.dir, 'package.json'), JSON.stringify({ name: 'jest-consumer', private: true }));
  writeFileSync(join(packed.dir, 'jest.config.js'), `module.exports = { cacheDirectory: ${JSON.stringify(join(packed.dir, '.jest'))} };\n`);
  writeFileSync(join(packed.dir, 'consumer.test.js'), CONSUMER_TEST);
  agent = await startV1Agent();
}, 60_000);
afterAll(async () => {
  await agent.close();
  packed.remove();
});

/** Runs `node args` in the consumer project without blocking this process (the fixture agent answers from it). */
function runNode(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: packed.dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('a Jest 30 consumer in CommonJS', () => {
  it('requires a4h-a2a, a4h-a2a/node and a4h-a2a/testing and runs its turns', async () => {
    const run = await runNode([JEST, '--rootDir', packed.dir, '--ci', '--no-watchman'], {
      A4H_AGENT_URL: agent.url('/'),
      A4H_AGENT_TEXT: AGENT_TEXT,
      A4H_AGENT_REPLY: echoReply(AGENT_TEXT),
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
    expect(run.stderr).not.toMatch(/Must use import|ERR_REQUIRE_ESM|did not exit/);
  }, 30_000);
});

describe('require() under Node', () => {
  it('gets the CommonJS build of each entry, with the same names as the ESM one', async () => {
    const script = `
      const names = (m) => Object.keys(m).filter((k) => k !== '__esModule').sort().join();
      (async () => {
        for (const entry of ['a4h-a2a', 'a4h-a2a/node', 'a4h-a2a/testing', 'a4h-a2a/ai-sdk']) {
          if (!require.resolve(entry).includes('/dist/cjs/')) throw new Error(entry + ' resolved to ' + require.resolve(entry));
          if (names(require(entry)) !== names(await import(entry))) throw new Error(entry + ': the builds differ');
        }
        console.log('ok');
      })();`;
    const run = await runNode(['-e', script]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('ok');
  });

  it('an app holding both builds sees one kind of error (the dual-package hazard, for A2AError)', () => {
    const script = `
      const cjs = require('a4h-a2a');
      import('a4h-a2a').then((esm) => {
        if (cjs.A2AError === esm.A2AError) throw new Error('one copy: nothing tested');
        const fromCjs = new cjs.A2AError({ kind: 'input', message: 'x' });
        const fromEsm = new esm.A2AError({ kind: 'input', message: 'x' });
        class Sub extends esm.A2AError {}
        console.log(JSON.stringify([
          fromCjs instanceof esm.A2AError, fromEsm instanceof cjs.A2AError,
          esm.isA2AError(fromCjs, 'input'), cjs.isA2AError(fromEsm), esm.toA2AError(fromCjs) === fromCjs,
          fromCjs instanceof Sub, cjs.isA2AError(new Error('x')), {} instanceof cjs.A2AError,
        ]));
      });`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: packed.dir, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([true, true, true, true, true, false, false, false]);
  });
});

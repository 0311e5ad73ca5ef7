/**
 * The core entry is browser-safe in its types too: a strict TypeScript project without Node's types
 * and without `skipLibCheck` (a browser app's tsconfig) compiles against `a4h-a2a` and
 * `a4h-a2a/testing`, and no declaration it reads pulls Node's types in. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './packed.js';

let dir = '';
beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'index.d.ts'))) throw new Error('dist/index.d.ts is missing: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'a4h-browser-types-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'a4h-a2a'), 'dir');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        skipLibCheck: false,
      },
      files: ['main.ts'],
    }),
  );
  writeFileSync(
    join(dir, 'main.ts'),
    `import * as core from 'a4h-a2a';
import * as testing from 'a4h-a2a/testing';
import { catchTurnError, turnState, type TurnView } from 'a4h-a2a';

export const everything = [core, testing];
export const view = (a2a: core.A2AClient) =>
  a2a.turn({ agent: 'https://agent.example/', handle: 'h', thread: 't', text: 'hi' }).pipe(catchTurnError(), turnState());
export let last: TurnView | undefined;
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the core entry's types in a browser project", () => {
  it('compile with strict, types: [] and no skipLibCheck, and read none of Node’s types', () => {
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json', '--listFiles'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const errors = run.stdout
      .split('\n')
      .filter((line) => /error TS/.test(line))
      .join('\n');
    expect(errors).toBe('');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/@types\/node/);
    expect(run.stdout).toMatch(/dist\/index\.d\.ts/);
  });
});

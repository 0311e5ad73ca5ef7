import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The house's walls, read from the source: which folder may import what.
const SRC = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports or re-exports, statically or dynamically. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)) found.push(match[2]!);
  return found;
}

const files = sourceFiles(SRC).map((path) => {
  const file = relative(SRC, path).split('\\').join('/');
  return { file, folder: file.includes('/') ? file.slice(0, file.indexOf('/')) : '.', imports: importsOf(readFileSync(path, 'utf8')) };
});

/** `file` imports a module of `folder` (relative imports resolved against the file). */
function reaches(file: string, specifier: string, folder: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const parts = file.split('/').slice(0, -1);
  for (const piece of specifier.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  return parts[0] === folder;
}

function offenders(allowed: (folder: string) => boolean, forbidden: (file: string, specifier: string) => boolean): string[] {
  return files.flatMap(({ file, folder, imports }) =>
    allowed(folder) ? [] : imports.filter((specifier) => forbidden(file, specifier)).map((specifier) => `${file} imports ${specifier}`),
  );
}

/** The module a relative import reaches, as a path under src/ (`.js` read as the `.ts` it is built from). */
function target(file: string, specifier: string): string {
  const parts = file.split('/').slice(0, -1);
  for (const piece of specifier.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  return parts.join('/').replace(/\.js$/, '.ts');
}

/** One import from a file of src/ to another (type imports too). */
interface Edge {
  file: string;
  to: string;
}

const edges: Edge[] = files.flatMap(({ file, imports }) =>
  imports.filter((s) => s.startsWith('.')).map((s) => ({ file, to: target(file, s) })),
);

/**
 * The imports that do not go down: from a part (as `partOf` names a path; undefined: not checked) to
 * a part of the same layer or of a higher one (`layers`, top first), and those reaching a part in no layer.
 */
function upward(all: readonly Edge[], layers: readonly (readonly string[])[], partOf: (path: string) => string | undefined): string[] {
  const rank = new Map(layers.flatMap((layer, i) => layer.map((part) => [part, i] as const)));
  return all.flatMap(({ file, to }) => {
    const [from, into] = [partOf(file), partOf(to)];
    if (from === undefined || into === undefined || from === into) return [];
    const [a, b] = [rank.get(from), rank.get(into)];
    if (a === undefined || b === undefined) return [`${file} imports ${to}: ${a === undefined ? from : into} is in no layer`];
    return a < b ? [] : [`${file} (${from}) imports ${to} (${into})`];
  });
}

/** Each cycle of imports found, as the files on it. */
function cycles(all: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { file, to } of all) next.set(file, [...(next.get(file) ?? []), to]);
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (file: string, path: string[]): void => {
    state.set(file, 'open');
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...path.slice(path.indexOf(to)), to].join(' → '));
      else if (!state.has(to)) visit(to, [...path, to]);
    }
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file, [file]);
  return found;
}

/** The folder of src/ a path is in (or the file itself, at src/'s root). */
const srcPart = (path: string): string => path.split('/')[0]!;

/** The tier of src/sdk/ a path is in (`.` for its root); undefined outside src/sdk/. */
function sdkPart(path: string): string | undefined {
  if (!path.startsWith('sdk/')) return undefined;
  const rest = path.slice('sdk/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '.';
}

/** The layers of src/, top first: the parts of one layer do not import each other. */
const SRC_LAYERS = [
  ['cli', 'angular', 'ai-sdk'],
  ['node'],
  ['index.ts'],
  ['client', 'push'],
  ['sdk', 'turn', 'testing', 'telemetry'],
  ['identity', 'render'],
  ['port', 'rx'],
  ['errors.ts', 'logger.ts', 'network-cause.ts', 'validation.ts'],
  ['card-signature.ts'],
];

/**
 * The tiers of src/sdk/, top first; a tier imports only the tiers below it (and itself): the factory
 * and the port of one agent (the root); the agent (card → resolved agent: the card's fetch, schema and
 * cache, signed cards, the binding chosen); the wire (the bindings and their one registry, the
 * transports, the fetches under every call, the client's own reader, the classifier, the SDK's shapes
 * mapped to the port's); HTTP (the one bounded body reader, SSE, Retry-After, what a request carries:
 * credentials and extensions).
 */
const SDK_TIERS = ['.', 'agent', 'wire', 'http'];

/**
 * The parts of src/turn/, top first: resume.ts (a thread's unfinished task, or the one carrying a
 * message, found and followed as a turn); turn.ts (the entry: the rungs composed); ladder/ (the
 * rungs); thread/ (the thread's lookups at the agent) and task/ (the stand-alone task verbs); the
 * base, the other files at turn/'s root (the context, the policy, the request, the turn's task, the
 * thread guard, not-now, within, LadderOptions).
 */
const TURN_LAYERS = [['resume.ts'], ['turn.ts'], ['ladder'], ['thread', 'task'], ['base']];

/** The part of src/turn/ a path is in (see {@link TURN_LAYERS}); undefined outside src/turn/. */
function turnPart(path: string): string | undefined {
  if (!path.startsWith('turn/')) return undefined;
  const rest = path.slice('turn/'.length);
  if (rest.includes('/')) return rest.slice(0, rest.indexOf('/'));
  return rest === 'resume.ts' || rest === 'turn.ts' ? rest : 'base';
}

describe('one client: the command line is a user of the package', () => {
  it('src/cli/ imports only the public entries (a4h-a2a, a4h-a2a/node), its own modules and packages', () => {
    const PUBLIC = new Set(['index.ts', 'node/index.ts']);
    const reachesInside = files
      .filter(({ folder }) => folder === 'cli')
      .flatMap(({ file, imports }) =>
        imports
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => ({ specifier, to: target(file, specifier) }))
          .filter(({ to }) => !to.startsWith('cli/') && !PUBLIC.has(to))
          .map(({ specifier }) => `${file} imports ${specifier}`),
      );
    expect(reachesInside).toEqual([]);
  });

  it('the check sees an internal import', () => {
    expect(target('cli/task/get.ts', '../../turn/task/wait-task.js')).toBe('turn/task/wait-task.ts');
    expect(target('cli/task/get.ts', '../../node/index.js')).toBe('node/index.ts');
  });
});

describe('the layers of src/ and of src/sdk/, and no cycle', () => {
  it('the folders of src/ (and the files at its root) import only the layers below theirs', () => {
    expect(upward(edges, SRC_LAYERS, srcPart)).toEqual([]);
  });

  it('the tiers of src/sdk/ are these, and each imports only the tiers below it', () => {
    const present = new Set(files.flatMap(({ file }) => sdkPart(file) ?? []));
    expect([...present].sort()).toEqual([...SDK_TIERS].sort());
    expect(
      upward(
        edges,
        SDK_TIERS.map((tier) => [tier]),
        sdkPart,
      ),
    ).toEqual([]);
  });

  it('the parts of src/turn/ are these, each imports only the parts below it, and its root holds at most 12 files', () => {
    const present = new Set(files.flatMap(({ file }) => turnPart(file) ?? []));
    expect([...present].sort()).toEqual(TURN_LAYERS.flat().sort());
    expect(upward(edges, TURN_LAYERS, turnPart)).toEqual([]);
    expect(files.filter(({ file }) => /^turn\/[^/]+$/.test(file)).length).toBeLessThanOrEqual(12);
  });

  it('the check sees a lookup that reaches a rung, and the base that reaches the entry', () => {
    const crossing = [
      { file: 'turn/thread/waiting.ts', to: 'turn/ladder/live.ts' },
      { file: 'turn/context.ts', to: 'turn/turn.ts' },
      { file: 'turn/ladder/live.ts', to: 'turn/policy.ts' },
    ];
    expect(upward(crossing, TURN_LAYERS, turnPart)).toEqual([
      'turn/thread/waiting.ts (thread) imports turn/ladder/live.ts (ladder)',
      'turn/context.ts (base) imports turn/turn.ts (turn.ts)',
    ]);
  });

  it('no module of src/ reaches itself through its imports (type imports count)', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('the checks see an import that goes up, one across a layer, and a cycle', () => {
    const crossing = [
      { file: 'port/a.ts', to: 'turn/b.ts' },
      { file: 'turn/b.ts', to: 'telemetry/c.ts' },
      { file: 'telemetry/c.ts', to: 'port/a.ts' },
    ];
    expect(upward(crossing, SRC_LAYERS, srcPart)).toEqual([
      'port/a.ts (port) imports turn/b.ts (turn)',
      'turn/b.ts (turn) imports telemetry/c.ts (telemetry)',
    ]);
    expect(cycles(crossing)).toEqual(['port/a.ts → turn/b.ts → telemetry/c.ts → port/a.ts']);
  });
});

describe('import boundaries of src/', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(files.find((f) => f.file === 'sdk/wire/transports/sdk-client.ts')?.imports).toContain('@a2a-js/sdk');
  });

  it('only src/sdk/ imports @a2a-js/sdk', () => {
    expect(
      offenders(
        (folder) => folder === 'sdk',
        (_, s) => s === '@a2a-js/sdk' || s.startsWith('@a2a-js/sdk/'),
      ),
    ).toEqual([]);
  });

  it('only src/sdk/ imports jose (card signatures are checked there)', () => {
    expect(
      offenders(
        (folder) => folder === 'sdk',
        (_, s) => s === 'jose' || s.startsWith('jose/'),
      ),
    ).toEqual([]);
    expect(files.find((f) => f.file === 'sdk/agent/trust/verify-card.ts')?.imports).toContain('jose');
  });

  it('only src/sdk/ and src/node/ import undici', () => {
    expect(
      offenders(
        (folder) => folder === 'sdk' || folder === 'node',
        (_, s) => s === 'undici' || s.startsWith('undici/'),
      ),
    ).toEqual([]);
  });

  it("only src/sdk/wire/bindings/grpc/node.ts loads gRPC (@grpc/grpc-js, the SDK's gRPC client), and only the Node entry reaches it", () => {
    const grpc = (s: string) => s.startsWith('@grpc/') || s.startsWith('@bufbuild/') || /^@a2a-js\/sdk\/(.*\/)?grpc$/.test(s);
    expect(
      files.flatMap(({ file, imports }) =>
        file === 'sdk/wire/bindings/grpc/node.ts' ? [] : imports.filter(grpc).map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    expect(
      files.flatMap(({ file, imports }) =>
        file === 'node/grpc.ts' ? [] : imports.filter((s) => s.endsWith('grpc/node.js')).map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    expect(files.find((f) => f.file === 'sdk/wire/bindings/grpc/node.ts')?.imports).toEqual(
      expect.arrayContaining(['@grpc/grpc-js', '@a2a-js/sdk/client/grpc']),
    );
  });

  it('only src/telemetry/index.ts (the a4h-a2a/telemetry entry) imports @opentelemetry/api, and nothing imports that entry', () => {
    expect(
      files.flatMap(({ file, imports }) =>
        file === 'telemetry/index.ts'
          ? []
          : imports
              .filter((s) => s.startsWith('@opentelemetry/') || (reaches(file, s, 'telemetry') && s.endsWith('/index.js')))
              .map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    expect(files.find((f) => f.file === 'telemetry/index.ts')?.imports).toContain('@opentelemetry/api');
  });

  it('only src/angular/ (the a4h-a2a/angular entry) imports @angular/*, and nothing imports it', () => {
    expect(
      files.flatMap(({ file, folder, imports }) =>
        folder === 'angular'
          ? []
          : imports.filter((s) => s.startsWith('@angular/') || reaches(file, s, 'angular')).map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    expect(files.find((f) => f.file === 'angular/index.ts')?.imports).toContain('@angular/core');
  });

  it('only src/ai-sdk/ (the a4h-a2a/ai-sdk entry) may import the AI SDK (ai, @ai-sdk/*), and nothing imports that entry', () => {
    const aiSdk = (s: string) => s === 'ai' || s.startsWith('ai/') || s.startsWith('@ai-sdk/');
    expect(
      files.flatMap(({ file, folder, imports }) =>
        folder === 'ai-sdk' ? [] : imports.filter((s) => aiSdk(s) || reaches(file, s, 'ai-sdk')).map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    // Its types are its own, checked against ai 6 and 7 (test/ai-sdk/): the entry loads nothing of the AI SDK.
    expect(files.filter((f) => f.folder === 'ai-sdk').flatMap((f) => f.imports.filter(aiSdk))).toEqual([]);
    expect(files.find((f) => f.file === 'ai-sdk/index.ts')?.imports).toContain('./transport.js');
  });

  it('turn/, render/, identity/, testing/, port/ and telemetry/ import the contract, never the adapter, the facade, the CLI or Node', () => {
    const contractOnly = new Set(['turn', 'render', 'identity', 'testing', 'port', 'telemetry']);
    const outside = ['sdk', 'client', 'cli', 'node'];
    expect(
      offenders(
        (folder) => !contractOnly.has(folder),
        (file, s) => s.startsWith('node:') || outside.some((folder) => reaches(file, s, folder)),
      ),
    ).toEqual([]);
  });

  it('arrows point down: port/ imports no layer, render/ no ladder, identity/ neither', () => {
    const below: Record<string, string[]> = {
      port: ['turn', 'render', 'identity', 'testing'],
      render: ['turn', 'identity', 'testing'],
      identity: ['turn', 'render', 'testing'],
    };
    expect(
      offenders(
        (folder) => !(folder in below),
        (file, s) => below[file.slice(0, file.indexOf('/'))]!.some((folder) => reaches(file, s, folder)),
      ),
    ).toEqual([]);
  });

  it('the ladder (src/turn/) is pure Rx over the port: no promise, no await', () => {
    const found = sourceFiles(join(SRC, 'turn')).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bawait\b|\bPromise\b/.test(line) ? [`${relative(SRC, path)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the client reaches the adapter only for its default factory and the agent-reach options; the port types come from the contract', () => {
    const allowed = new Set(['../sdk/ports.js', '../sdk/reach-options.js']);
    expect(
      files.flatMap(({ file, folder, imports }) =>
        folder === 'client' ? imports.filter((s) => reaches(file, s, 'sdk') && !allowed.has(s)).map((s) => `${file} imports ${s}`) : [],
      ),
    ).toEqual([]);
    const types = readFileSync(join(SRC, 'client', 'types.ts'), 'utf8');
    expect(types).toMatch(/import type \{ PortFactory \} from '\.\.\/port\/port\.js'/);
  });
});

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

describe('import boundaries of src/', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(files.find((f) => f.file === 'sdk/transports/sdk-client.ts')?.imports).toContain('@a2a-js/sdk');
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
    expect(files.find((f) => f.file === 'sdk/trust/verify-card.ts')?.imports).toContain('jose');
  });

  it('only src/sdk/ and src/node/ import undici', () => {
    expect(
      offenders(
        (folder) => folder === 'sdk' || folder === 'node',
        (_, s) => s === 'undici' || s.startsWith('undici/'),
      ),
    ).toEqual([]);
  });

  it("only src/sdk/bindings/grpc/node.ts loads gRPC (@grpc/grpc-js, the SDK's gRPC client), and only the Node entry reaches it", () => {
    const grpc = (s: string) => s.startsWith('@grpc/') || s.startsWith('@bufbuild/') || /^@a2a-js\/sdk\/(.*\/)?grpc$/.test(s);
    expect(
      files.flatMap(({ file, imports }) =>
        file === 'sdk/bindings/grpc/node.ts' ? [] : imports.filter(grpc).map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    expect(
      files.flatMap(({ file, imports }) =>
        file === 'node/grpc.ts' ? [] : imports.filter((s) => s.endsWith('grpc/node.js')).map((s) => `${file} imports ${s}`),
      ),
    ).toEqual([]);
    expect(files.find((f) => f.file === 'sdk/bindings/grpc/node.ts')?.imports).toEqual(
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

import { build } from 'esbuild';
import { buildForBrowser } from './browser-build.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

describe('the core entry in a browser bundle', () => {
  it('bundles for the browser platform with no Node built-in', async () => {
    const result = await buildForBrowser({
      entryPoints: [entry],
      minify: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /^node:|\/node\/|undici/.test(path))).toEqual([]);
    // gRPC is Node-only: neither @grpc/grpc-js, @bufbuild/protobuf, the SDK's gRPC client nor our loader of them.
    expect(inputs.filter((path) => /@grpc|@bufbuild|transports\/grpc|sdk\/grpc\/node/.test(path))).toEqual([]);
    // The AI SDK entry and the AI SDK itself stay out of the core.
    expect(inputs.filter((path) => /node_modules\/(ai|@ai-sdk)\/|src\/ai-sdk\//.test(path))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/require\(["']node:|from ?["']node:/);
  });

  it('the AI SDK entry bundles for the browser too: no Node built-in, nothing of the AI SDK', async () => {
    const result = await buildForBrowser({
      entryPoints: [fileURLToPath(new URL('../src/ai-sdk/index.ts', import.meta.url))],
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /^node:|\/node\/|undici|node_modules\/(ai|@ai-sdk)\//.test(path))).toEqual([]);
    expect(inputs.some((path) => path.includes('src/ai-sdk/transport.ts'))).toBe(true);
  });

  it('fails the bundle when the core imports a Node built-in (the check can fail)', async () => {
    await expect(
      build({
        stdin: { contents: "import { readFileSync } from 'node:fs'; export const x = readFileSync;", resolveDir: process.cwd() },
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
      }),
    ).rejects.toThrow(/node:fs/);
  });
});

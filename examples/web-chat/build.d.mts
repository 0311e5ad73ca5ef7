/** Types of build.mjs, for the TypeScript tests. */
import type { BuildOptions, Message } from 'esbuild';

/** The esbuild options for the page. */
export declare const options: BuildOptions;

/** Builds dist/main.js (+ .map) once; rejects when the Buffer polyfill is missing from the bundle. */
export declare function buildWebChat(): Promise<{ outfile: string; bytes: number; warnings: Message[] }>;

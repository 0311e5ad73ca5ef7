/** Types of build.mjs, for the TypeScript tests. */
import type { BuildOptions, Message } from 'esbuild';

/** The esbuild options for the page. */
export declare const options: BuildOptions;

/** Builds dist/main.js (+ .map) once. */
export declare function buildReactChat(): Promise<{ outfile: string; bytes: number; warnings: Message[] }>;

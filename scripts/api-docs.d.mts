/** Types of api-docs.mjs, for the TypeScript tests. */

/** One documented entry of package.json's `exports`. */
export interface ApiEntry {
  /** How it is imported, e.g. `a4h-a2a/node`. */
  importPath: string;
  /** Its package name in the doc model and the pages' file names, e.g. `a4h-a2a-node`. */
  model: string;
  /** Its built ESM declarations. */
  dts: string;
}

/** One problem API Extractor found, where the declaration maps put it. */
export interface ApiProblem {
  /** The entry whose run found it. */
  entry: string;
  /** The message id, e.g. `ae-undocumented`, `ae-unresolved-link`, `tsdoc-…`. */
  id: string;
  /** The source file, relative to the checkout (`src/…`). */
  file?: string;
  line?: number;
  text: string;
}

export interface ExtractOptions {
  /** Default: {@link apiEntries}. */
  entries?: ApiEntry[];
  /** Where the doc models go; default a new temporary folder. */
  modelDir?: string;
}

export interface Extracted {
  /** Holds `<model>.api.json` for each entry. */
  modelDir: string;
  problems: ApiProblem[];
}

export interface WriteOptions {
  modelDir: string;
  /** Default {@link API_DOCS_DIR}; emptied first. */
  outputDir?: string;
  /** Default: {@link apiEntries}. */
  entries?: ApiEntry[];
}

/** docs/api of this checkout. */
export declare const API_DOCS_DIR: string;

/** The entries of package.json's `exports` that have declarations. */
export declare function apiEntries(): ApiEntry[];

/** Runs API Extractor on each entry's .d.ts: the doc models, and every problem in the doc comments. */
export declare function extractApi(options?: ExtractOptions): Extracted;

/** `src/file.ts:12 ae-undocumented Missing documentation for "x".` */
export declare function formatProblem(problem: ApiProblem): string;

/** Writes the Markdown pages; returns their file names. Throws when API Documenter warns. */
export declare function writeApiDocs(options: WriteOptions): string[];

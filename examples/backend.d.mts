/** Types of backend.mjs, for the TypeScript tests. */

export declare const DEMO_SECRET: string;
export declare const HANDLE: string;
export declare const DEFAULT_AGENT: string;
export declare const TYPES: Readonly<Record<string, string>>;

export interface ExampleBackendOptions {
  /** The agent's base URL, handed to the page; default {@link DEFAULT_AGENT}. */
  agent?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The identity secret; default `A4H_IDENTITY_SECRET`, else {@link DEMO_SECRET}. */
  secret?: string;
  /** One line per derived contextId. */
  log?: (line: string) => void;
}

export interface ExampleBackend {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** The agent URL the page is given. */
  agent: string;
  close(): Promise<void>;
}

export declare function startExampleBackend(
  options: ExampleBackendOptions & {
    files: (path: string) => Promise<{ file: string; type: string } | undefined>;
    missing: string;
  },
): Promise<ExampleBackend>;

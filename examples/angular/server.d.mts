/** Types of server.mjs, for the TypeScript tests. */
import type { ExampleBackend, ExampleBackendOptions } from '../backend.mjs';

/** Where `ng build` puts the app. */
export declare const BROWSER_DIR: string;

export declare function startAngularChatServer(options?: ExampleBackendOptions): Promise<ExampleBackend>;

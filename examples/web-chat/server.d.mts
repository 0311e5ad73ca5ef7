/** Types of server.mjs, for the TypeScript tests. */
import type { ExampleBackend, ExampleBackendOptions } from '../backend.mjs';

export { DEFAULT_AGENT, DEMO_SECRET, HANDLE } from '../backend.mjs';
export type { ExampleBackendOptions as WebChatServerOptions, ExampleBackend as WebChatServer } from '../backend.mjs';

export declare function startWebChatServer(options?: ExampleBackendOptions): Promise<ExampleBackend>;

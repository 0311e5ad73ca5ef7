/** Types of server.mjs, for the TypeScript tests. */
import type { ExampleBackend, ExampleBackendOptions } from '../backend.mjs';

export { DEFAULT_AGENT, DEMO_SECRET, HANDLE } from '../backend.mjs';
export type { ExampleBackendOptions as ReactChatServerOptions, ExampleBackend as ReactChatServer } from '../backend.mjs';

export declare function startReactChatServer(options?: ExampleBackendOptions): Promise<ExampleBackend>;

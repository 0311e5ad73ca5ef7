import type { WireMeaning } from './binding.js';

/** The meanings the wire table's rows share, every binding's and each binding's own. */
export const MEANINGS = {
  taskNotFound: { kind: 'task-not-found', retryable: false },
  unsupported: { kind: 'unsupported', retryable: false },
  // Another try with the same credentials would be refused the same way.
  auth: { kind: 'auth', retryable: false },
  transient: { kind: 'http', retryable: true },
  // The caller must activate the extension: the same call again would be refused the same way.
  extensionRequired: { kind: 'input', retryable: false },
  // A2A 1.1 (draft): the task moved on since the generation the message named; the same message again is refused the same way.
  conflict: { kind: 'conflict', retryable: false },
  // A call that broke on its way (a dropped connection, a reset stream, a server going away): resubscribe.
  broken: { kind: 'network', retryable: true },
} as const satisfies Record<string, WireMeaning>;

import { Agent, fetch as undiciFetch } from 'undici';

/**
 * undici 7's fetch on a pooled `Agent` with the same settings as a4h-a2a's `createNodeFetch`
 * (connect 10 s, headers 10 min, body 15 min, keep-alive 30 s), for the SDK and floor contenders.
 */
export function pooledFetch(connections: number): { fetch: typeof fetch; close(): Promise<void> } {
  const dispatcher = new Agent({
    connect: { timeout: 10_000 },
    headersTimeout: 600_000,
    bodyTimeout: 900_000,
    connections,
    keepAliveTimeout: 30_000,
  });
  const fetchImpl = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof fetch;
  return { fetch: fetchImpl, close: () => dispatcher.close() };
}

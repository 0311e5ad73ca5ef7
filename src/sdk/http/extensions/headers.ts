import type { CallInterceptor } from '@a2a-js/sdk/client';

/** The extensions header of A2A v1.0 (§3.2.6): the URIs a request activates, comma-separated. */
export const EXTENSIONS_HEADER = 'A2A-Extensions';
/** Its v0.3 name (v1.0 dropped the `X-`). */
export const LEGACY_EXTENSIONS_HEADER = 'X-A2A-Extensions';

/**
 * The headers that activate `uris` on a call: `A2A-Extensions` to a v1.0 interface; to a v0.3 one
 * `X-A2A-Extensions` (what v0.3 servers read: the 0.3 SDKs, Python's and JavaScript's) and
 * `A2A-Extensions` too (what the v0.3 compatibility layers of the v1.0 SDKs also read; Python's v0.3
 * client side of its 1.0 SDK sends both). A server that knows neither name ignores both.
 */
export function extensionHeaders(uris: readonly string[], legacy: boolean): Record<string, string> {
  const value = uris.join(',');
  return legacy ? { [LEGACY_EXTENSIONS_HEADER]: value, [EXTENSIONS_HEADER]: value } : { [EXTENSIONS_HEADER]: value };
}

/**
 * The fetch under the SDK's client, with a v0.3 call's `X-A2A-Extensions` also sent as
 * `A2A-Extensions`: the SDK keeps only the name of the call's generation (it rewrites one into the
 * other), so the second name of {@link extensionHeaders} is put back here. Any other request passes
 * as it is (one property read: the SDK's headers are a plain object).
 */
export function withBothExtensionNames(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const headers = init?.headers;
    if (headers === undefined || headers instanceof Headers || Array.isArray(headers)) return fetch(input, init);
    const value = headers[LEGACY_EXTENSIONS_HEADER];
    if (value === undefined || headers[EXTENSIONS_HEADER] !== undefined) return fetch(input, init);
    return fetch(input, { ...init, headers: { ...headers, [EXTENSIONS_HEADER]: value } });
  };
}

/**
 * The same for a gRPC call, whose service parameters become its metadata: an interceptor on the
 * SDK's client that puts a v0.3 call's `X-A2A-Extensions` back under `A2A-Extensions` too, after
 * the client kept only one name.
 */
export const bothExtensionNamesOnGrpc: CallInterceptor = {
  before: async (args) => {
    const parameters = args.options?.serviceParameters;
    const value = parameters?.[LEGACY_EXTENSIONS_HEADER];
    if (parameters !== undefined && value !== undefined && parameters[EXTENSIONS_HEADER] === undefined)
      parameters[EXTENSIONS_HEADER] = value;
  },
  after: async () => undefined,
};

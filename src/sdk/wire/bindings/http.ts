import type { Binding, BindingAddress, HttpTransport, StreamWay } from './binding.js';
import type { ProtocolBinding } from './options.js';

/** What makes one binding over HTTP (JSON-RPC, HTTP+JSON) different from the other. */
interface HttpBindingParts<N extends ProtocolBinding> {
  name: N;
  preference: number;
  transport: HttpTransport;
  streams: StreamWay;
}

/**
 * A binding over HTTP: an interface's address is an http(s) URL (checked with the card), shown
 * without a user or password; its calls go through the SDK's transport on the agent's fetch; its
 * errors are A2A's codes and the HTTP statuses, every binding's rows.
 */
export function httpBinding<N extends ProtocolBinding>(parts: HttpBindingParts<N>): Binding<N> {
  return {
    name: parts.name,
    preference: parts.preference,
    http: parts.transport,
    streams: parts.streams,
    address: httpAddress,
    unreadable: (url) => `its ${parts.name} address ${JSON.stringify(url)} is not an http(s) URL`,
    onHost: (url, host) => {
      const moved = new URL(url);
      moved.hostname = host;
      return moved.href;
    },
    errors: [],
  };
}

function httpAddress(url: string): BindingAddress | undefined {
  let shown: string;
  try {
    shown = withoutCredentials(url);
  } catch {
    return undefined;
  }
  return { shown, scope: shown, target: url };
}

/** A URL as summaries and error messages show it: never with a user or password. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

import { type GrpcWireEvent, type GrpcWireWatch, redactQuery } from '../../node/index.js';
import { isCredentialMember, REDACTED, redactLine } from './debug-redact.js';
import type { Io } from '../core/io.js';
import { terminalLine } from '../output/terminal-text.js';

/**
 * `--debug`: the wire on stderr (the A2A CLI specification's §5.2): each HTTP request (method, URL,
 * headers, body) and its answer (status, time, headers, the body as it arrives, a stream's events
 * included). Credentials never show, whatever else is asked: a header's value shows only for the
 * headers below, which carry none; every other value (Authorization, an API key, a cookie, anything
 * given with -H) is `[redacted]`, and each query value is `***` (a query may carry an API key). In the
 * bodies both ways, each credential member's value is `[redacted]` (see debug-redact.ts: OAuth's
 * tokens and client secret, a push config's token and credentials). A gRPC call shows the same way:
 * its method and metadata (as headers), each message both ways as JSON, the answer's metadata and
 * its status.
 */
const SHOWN_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'a2a-version',
  'a2a-extensions',
  'x-a2a-extensions',
  'cache-control',
  'connection',
  'content-length',
  'content-type',
  'date',
  'etag',
  'if-modified-since',
  'if-none-match',
  'last-modified',
  'traceparent',
  'transfer-encoding',
  'user-agent',
]);

/** The longest body piece shown per line; the rest is counted. */
const MAX_SHOWN = 16_384;

/**
 * A header as `--debug` shows it: its value, or `[redacted]` for any header not known to carry no
 * credential and for any the person gave (`hidden`, lower case: `-H`, `--svc-param`), whatever its name.
 */
export function shownHeader(name: string, value: string, hidden: ReadonlySet<string> = new Set()): string {
  const lower = name.toLowerCase();
  return `${lower}: ${SHOWN_HEADERS.has(lower) && !hidden.has(lower) ? value : '[redacted]'}`;
}

/** The wire log of one command: HTTP calls through {@link WireLog.fetch}, gRPC ones through {@link WireLog.grpc}, numbered together. */
export interface WireLog {
  /** `fetch` with each request and answer logged to stderr, credentials redacted (see above). */
  fetch(inner: typeof fetch): typeof fetch;
  /** The watcher of every gRPC call (`grpcSupport({ wire })`): each logged to stderr, credentials redacted. */
  grpc: GrpcWireWatch;
}

/** `--debug`'s wire log on `io`'s stderr; `hidden`: the names of the headers the person gave (`-H`, `--svc-param`), never shown. */
export function wireLog(io: Io, hidden: Iterable<string> = []): WireLog {
  const given: ReadonlySet<string> = new Set([...hidden].map((name) => name.toLowerCase()));
  let next = 0;
  // What the agent sent (bodies, headers, status texts, errors) is text for the terminal, never control.
  const log = (id: number, text: string) => io.err.write(`a4h: debug: #${id} ${terminalLine(text)}\n`);
  const grpcIds = new Map<number, { id: number; started: number }>();
  return {
    fetch: (inner) => debugFetch(inner, () => ++next, log, given),
    grpc: (event) => {
      if (event.kind === 'start') grpcIds.set(event.call, { id: ++next, started: Date.now() });
      const call = grpcIds.get(event.call);
      if (call === undefined) return;
      for (const line of grpcLines(event, Date.now() - call.started, given)) log(call.id, line);
      if (event.kind === 'status') grpcIds.delete(event.call);
    },
  };
}

/** What a gRPC call's event shows: like an HTTP call's lines, a message as its JSON. */
function grpcLines(event: GrpcWireEvent, ms: number, hidden: ReadonlySet<string>): string[] {
  switch (event.kind) {
    case 'start':
      return [`→ GRPC ${event.method}`, ...event.metadata.map(([name, value]) => `  ${shownHeader(name, value, hidden)}`)];
    case 'metadata':
      return event.metadata.map(([name, value]) => `  ${shownHeader(name, value, hidden)}`);
    case 'send':
    case 'receive':
      return [`  ${event.kind === 'send' ? '→' : '←'} ${clip(messageJson(event.message))}`];
    case 'status':
      return [`← ${event.name}${event.details ? ` ${event.details}` : ''} (${ms} ms)`];
  }
}

/** A decoded gRPC message as JSON: credential members hidden, bytes as their size (a file's content is no diagnostic), 64-bit numbers as text. */
function messageJson(message: unknown): string {
  try {
    return JSON.stringify(message, (key, value: unknown) =>
      key !== '' && isCredentialMember(key)
        ? REDACTED
        : value instanceof Uint8Array
          ? `(${value.length} bytes)`
          : typeof value === 'bigint'
            ? value.toString()
            : value,
    );
  } catch {
    return '(a message that is not JSON)';
  }
}

function debugFetch(
  inner: typeof fetch,
  nextId: () => number,
  log: (id: number, text: string) => void,
  hidden: ReadonlySet<string>,
): typeof fetch {
  return async (input, init) => {
    const id = nextId();
    const request = new Request(input, init);
    log(id, `→ ${request.method} ${redactQuery(request.url)}`);
    request.headers.forEach((value, name) => log(id, `  ${shownHeader(name, value, hidden)}`));
    if (typeof init?.body === 'string') log(id, `  ${clip(redactLine(init.body))}`);
    else if (init?.body != null) log(id, '  (a body that is not text)');
    const started = Date.now();
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      log(id, `✗ ${(error as Error).message} (${Date.now() - started} ms)`);
      throw error;
    }
    log(id, `← ${response.status} ${response.statusText} (${Date.now() - started} ms)`);
    response.headers.forEach((value, name) => log(id, `  ${shownHeader(name, value)}`));
    if (response.body !== null) void logBody(response.clone(), (line) => log(id, `  ${line}`));
    return response;
  };
}

/** The body as it arrives, line by line (a stream's events each as their lines), clipped; a failed read ends quietly. */
async function logBody(response: Response, line: (text: string) => void): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const text of lines) if (text.trim() !== '') line(clip(redactLine(text)));
    }
    if (pending.trim() !== '') line(clip(redactLine(pending)));
  } catch {
    // The call was aborted or broke: its own error says so.
  }
}

function clip(text: string): string {
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}… (${text.length - MAX_SHOWN} more characters)`;
}

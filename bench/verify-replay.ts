/**
 * Checks, on every benchmark run, that the replay agent sends what a real `@a2a-js/sdk` 1.3 server
 * sends: the same card and, for the same requests, the same SSE bytes once the ids the servers
 * make up (task ids, generated context ids) and the port are normalised.
 */
import { startSdkAgent } from './sdk-agent.js';

export interface ReplayCheck {
  identical: boolean;
  /** What was compared, one line each, with the first difference when there is one. */
  cases: { name: string; identical: boolean; bytes: number; difference?: string }[];
}

const CHUNKS = 5;

/** The bodies the SDK client sends (captured from `sendMessageStream`), with and without a contextId and historyLength. */
const REQUESTS: { name: string; body: object }[] = [
  {
    name: `SendStreamingMessage, contextId, historyLength 0, numeric id, ${CHUNKS} chunks`,
    body: {
      jsonrpc: '2.0',
      method: 'SendStreamingMessage',
      params: {
        message: {
          messageId: 'm-1',
          contextId: 'ctx-bench',
          role: 'ROLE_USER',
          parts: [{ text: String(CHUNKS), mediaType: 'text/plain' }],
        },
        configuration: { acceptedOutputModes: ['text/plain', 'text/markdown'], historyLength: 0 },
      },
      id: 7,
    },
  },
  {
    name: `SendStreamingMessage, no contextId, no configuration (history echoed), string id, ${CHUNKS} chunks`,
    body: {
      jsonrpc: '2.0',
      method: 'SendStreamingMessage',
      params: { message: { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: String(CHUNKS) }] } },
      id: 'req-2',
    },
  },
];

/** Diffs the replay agent at `replayUrl` against a fresh SDK server. */
export async function verifyReplay(replayUrl: string): Promise<ReplayCheck> {
  const sdk = await startSdkAgent();
  try {
    const cases: ReplayCheck['cases'] = [];
    const card = async (base: string) =>
      normalise((await (await fetch(`${base}/.well-known/agent-card.json`)).text()).replaceAll(base, 'BASE'));
    cases.push(compare('agent card', await card(sdk.url), await card(replayUrl)));
    for (const request of REQUESTS) {
      const [expected, actual] = await Promise.all([post(sdk.url, request.body), post(replayUrl, request.body)]);
      cases.push(compare(request.name, expected, actual));
    }
    return { identical: cases.every((c) => c.identical), cases };
  } finally {
    await sdk.close();
  }
}

async function post(base: string, body: object): Promise<string> {
  const response = await fetch(`${base}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'A2A-Version': '1.0' },
    body: JSON.stringify(body),
  });
  const head = ['content-type', 'cache-control', 'x-accel-buffering'].map((h) => `${h}: ${response.headers.get(h)}`).join('\n');
  return normalise(`${head}\n\n${await response.text()}`);
}

/** Server-made UUIDs become `<uuid-1>`, `<uuid-2>`… in order of appearance. */
function normalise(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (uuid) => {
    if (!seen.has(uuid)) seen.set(uuid, `<uuid-${seen.size + 1}>`);
    return seen.get(uuid)!;
  });
}

function compare(name: string, expected: string, actual: string): ReplayCheck['cases'][number] {
  if (expected === actual) return { name, identical: true, bytes: expected.length };
  const a = expected.split('\n');
  const b = actual.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  const at = line === -1 ? a.length : line;
  return {
    name,
    identical: false,
    bytes: expected.length,
    difference: `line ${at + 1}: sdk ${JSON.stringify(a[at])} / replay ${JSON.stringify(b[at])}`,
  };
}

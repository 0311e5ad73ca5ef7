/**
 * The bytes an `@a2a-js/sdk` 1.3 JSON-RPC server sends for the benchmark's task, built without
 * the SDK: task SUBMITTED → status WORKING → N artifact chunks of 16 B → status COMPLETED, each
 * event one SSE `data:` frame with the request's JSON-RPC id. `verify-replay.ts` diffs them against
 * a real SDK server on every run. Protobuf-JSON rules: default values (`append: false`,
 * `lastChunk: false`) are left out, enum values are names, keys come in field order.
 */

/** The text of chunk `i`: `chunk-` and ten digits, 16 bytes. */
export function chunkText(i: number): string {
  return 'chunk-' + String(i).padStart(10, '0');
}

/** What a streaming request carried that the answer depends on. */
export interface StreamRequest {
  /** The JSON-RPC id, echoed as it came (a number or a string). */
  id: unknown;
  /** The user's message as the client serialised it. */
  message: Record<string, unknown>;
  /** `configuration.historyLength`, when given: 0 leaves the task's history out. */
  historyLength: number | undefined;
}

/** The frames of one answer; the chunk frames are made one at a time from a template. */
export interface AnswerFrames {
  /** Task SUBMITTED (with the user's message as history unless historyLength is 0). */
  task: string;
  working: string;
  chunk(i: number, n: number): string;
  completed: string;
}

const frame = (json: string): string => `data: ${json}\n\n`;

/** The frames the SDK server sends for `request`, with the task and context ids it would use. */
export function answerFrames(request: StreamRequest, taskId: string, contextId: string): AnswerFrames {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id ?? null)},"result":`;
  const ids = `"taskId":${JSON.stringify(taskId)},"contextId":${JSON.stringify(contextId)}`;
  const task: Record<string, unknown> = { id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED' } };
  if (request.historyLength !== 0) task['history'] = [historyMessage(request.message, taskId, contextId)];
  const status = (state: string): string => frame(`${head}{"statusUpdate":{${ids},"status":{"state":"${state}"}}}}`);
  const chunkHead = `${head}{"artifactUpdate":{${ids},"artifact":{"artifactId":"out","parts":[{"text":"`;
  return {
    task: frame(`${head}${JSON.stringify({ task })}}`),
    working: status('TASK_STATE_WORKING'),
    chunk: (i, n) => {
      const flags = (i > 0 ? ',"append":true' : '') + (i === n - 1 ? ',"lastChunk":true' : '');
      return `data: ${chunkHead}${chunkText(i)}"}]}${flags}}}}\n\n`;
    },
    completed: status('TASK_STATE_COMPLETED'),
  };
}

/** The user's message as the SDK server stores it in the task: ids filled in, fields in proto order. */
function historyMessage(message: Record<string, unknown>, taskId: string, contextId: string): Record<string, unknown> {
  const { messageId, role, parts, ...rest } = message;
  delete rest['contextId'];
  delete rest['taskId'];
  return { messageId, contextId, taskId, role, parts, ...rest };
}

/** The card the SDK's `agentCardHandler` serves for the replay agent: one v1.0 JSON-RPC interface, streaming. */
export function agentCard(interfaceUrl: string): Record<string, unknown> {
  return {
    name: 'replay',
    description: 'Replays recorded @a2a-js/sdk 1.3 stream bytes.',
    supportedInterfaces: [{ url: interfaceUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
}

/** The response headers of the SDK's express handlers (`express` adds its own Date and ETag). */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/** `agentCardHandler` lets cards be cached for an hour. */
export const CARD_CACHE_CONTROL = 'public, max-age=3600';

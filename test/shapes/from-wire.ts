import type { AgentEvent, AgentMessage, Artifact, Part, TaskState, TaskStatus } from '../../src/port/types.js';

/**
 * A test-only reading of recorded A2A stream payloads (v0.3 `kind` objects and v1.0 oneof
 * wrappers) into the ladder's domain events, so the recorded shapes can drive the renderer.
 */
type Json = Record<string, any>;

export function fromWire(lines: string): AgentEvent[] {
  return lines
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => event(JSON.parse(line) as Json));
}

function event(json: Json): AgentEvent {
  const kind = json.kind ?? Object.keys(json)[0];
  const body: Json = json.kind ? json : json[kind];
  switch (kind) {
    case 'task':
      return {
        kind: 'task',
        task: {
          id: body.id,
          contextId: body.contextId,
          status: status(body.status),
          artifacts: (body.artifacts ?? []).map(artifact),
          history: (body.history ?? []).map(message),
        },
      };
    case 'message':
      return { kind: 'message', message: message(body) };
    case 'status-update':
    case 'statusUpdate':
      return { kind: 'status', taskId: body.taskId, contextId: body.contextId, status: status(body.status), metadata: body.metadata };
    case 'artifact-update':
    case 'artifactUpdate':
      return {
        kind: 'artifact',
        taskId: body.taskId,
        contextId: body.contextId,
        artifact: artifact(body.artifact),
        append: body.append === true,
        lastChunk: body.lastChunk === true,
        metadata: body.metadata,
      };
    default:
      throw new Error(`unknown event ${JSON.stringify(json)}`);
  }
}

function status(json: Json): TaskStatus {
  const state = String(json.state)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-') as TaskState;
  return json.message ? { state, message: message(json.message) } : { state };
}

function message(json: Json): AgentMessage {
  const role =
    String(json.role)
      .replace(/^ROLE_/, '')
      .toLowerCase() === 'user'
      ? 'user'
      : 'agent';
  return { role, parts: (json.parts ?? []).map(part), messageId: json.messageId };
}

function artifact(json: Json): Artifact {
  return { artifactId: json.artifactId, name: json.name, parts: (json.parts ?? []).map(part), metadata: json.metadata };
}

function part(json: Json): Part {
  if (typeof json.text === 'string') return { kind: 'text', text: json.text, metadata: json.metadata };
  if ('data' in json) return { kind: 'data', data: json.data, metadata: json.metadata };
  return { kind: 'file', metadata: json.metadata };
}

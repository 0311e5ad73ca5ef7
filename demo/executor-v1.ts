/**
 * The demo agent's executor for A2A v1.0 (@a2a-js/sdk 1.3): runs a {@link runTurn} and publishes its
 * events in the SDK's v1.0 shapes (ts-proto objects, numeric enums).
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, Part } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { CANCELED_REPLY } from './reply.js';
import { RunningTurns, TurnStopped, runTurn, shortId } from './turn.js';
import type { TurnOutput, TurnSettings, TurnState } from './turn.js';
import type { Attachment } from './reply.js';

const STATES: Record<TurnState, TaskState> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  completed: TaskState.TASK_STATE_COMPLETED,
  canceled: TaskState.TASK_STATE_CANCELED,
};

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** A raw-bytes file part (base64 in JSON on the wire). */
function filePart(file: Attachment): Part {
  const content = { $case: 'raw' as const, value: Buffer.from(file.bytes) };
  return { content, metadata: undefined, filename: file.filename, mediaType: file.mediaType };
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function statusEvent(taskId: string, contextId: string, state: TurnState, text?: string) {
  const message = text === undefined ? undefined : agentMessage(text, taskId, contextId);
  const status = { state: STATES[state], message, timestamp: new Date().toISOString() };
  return AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined });
}

/** Publishes a turn's events on a v1.0 event bus. */
function output(ctx: RequestContext, bus: ExecutionEventBus): TurnOutput {
  const { taskId, contextId } = ctx;
  return {
    task(state) {
      const history = (ctx.task?.history ?? []).filter((m) => m.messageId !== ctx.userMessage.messageId);
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: STATES[state], message: undefined, timestamp: new Date().toISOString() },
          artifacts: ctx.task?.artifacts ?? [],
          history: [...history, ctx.userMessage],
          metadata: undefined,
        }),
      );
    },
    status(state) {
      bus.publish(statusEvent(taskId, contextId, state));
    },
    chunk(artifactId, text, append, lastChunk, file) {
      const parts = file ? [textPart(text), filePart(file)] : [textPart(text)];
      const artifact = { artifactId, name: 'answer', description: '', parts, metadata: undefined, extensions: [] };
      bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append, lastChunk, metadata: undefined }));
    },
  };
}

/** The text parts of the user's message, joined. */
function userText(ctx: RequestContext): string {
  return ctx.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** The v1.0 `AgentExecutor`: one {@link runTurn} per message; CancelTask stops it and publishes CANCELED. */
export class DemoExecutorV1 implements AgentExecutor {
  readonly turns = new RunningTurns();

  constructor(private readonly settings: TurnSettings) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const run = this.turns.begin(ctx.taskId, ctx.contextId);
    try {
      await runTurn(ctx.contextId, userText(ctx), output(ctx, bus), this.settings, run.signal);
    } catch (error) {
      if (!(error instanceof TurnStopped)) throw error;
    } finally {
      run.done();
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const contextId = this.turns.cancel(taskId);
    this.settings.log?.(`${shortId(contextId)} canceled`);
    bus.publish(statusEvent(taskId, contextId, 'canceled', CANCELED_REPLY));
  };
}

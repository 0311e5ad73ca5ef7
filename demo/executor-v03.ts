/**
 * The demo agent's executor for A2A v0.3 (@a2a-js/sdk 0.3.14, installed as `sdk03`): runs a
 * {@link runTurn} and publishes its events in v0.3 shapes (`kind`, string states, `final`).
 */
import { randomUUID } from 'node:crypto';
import type { Message, Part, TaskStatusUpdateEvent } from 'sdk03';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from 'sdk03/server';
import { CANCELED_REPLY } from './reply.js';
import { RunningTurns, TurnStopped, runTurn, shortId } from './turn.js';
import type { TurnOutput, TurnSettings, TurnState } from './turn.js';
import type { Attachment } from './reply.js';

function statusEvent(taskId: string, contextId: string, state: TurnState, text?: string): TaskStatusUpdateEvent {
  const status: TaskStatusUpdateEvent['status'] = { state, timestamp: new Date().toISOString() };
  if (text !== undefined) {
    const parts: Message['parts'] = [{ kind: 'text', text }];
    status.message = { kind: 'message', role: 'agent', messageId: randomUUID(), parts, taskId, contextId };
  }
  // v0.3 marks the event that ends the stream.
  return { kind: 'status-update', taskId, contextId, status, final: state === 'completed' || state === 'canceled' };
}

/** A file part with its bytes inline (base64). */
function filePart(file: Attachment): Part {
  const bytes = Buffer.from(file.bytes).toString('base64');
  return { kind: 'file', file: { bytes, mimeType: file.mediaType, name: file.filename } };
}

/** Publishes a turn's events on a v0.3 event bus. */
function output(ctx: RequestContext, bus: ExecutionEventBus): TurnOutput {
  const { taskId, contextId } = ctx;
  return {
    task(state) {
      const history = (ctx.task?.history ?? []).filter((m) => m.messageId !== ctx.userMessage.messageId);
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state, timestamp: new Date().toISOString() },
        history: [...history, ctx.userMessage],
        artifacts: ctx.task?.artifacts ?? [],
      });
    },
    status(state) {
      bus.publish(statusEvent(taskId, contextId, state));
    },
    chunk(artifactId, text, append, lastChunk, file) {
      const parts: Part[] = [{ kind: 'text', text }, ...(file ? [filePart(file)] : [])];
      const artifact = { artifactId, name: 'answer', parts };
      bus.publish({ kind: 'artifact-update', taskId, contextId, artifact, append, lastChunk });
    },
  };
}

/** The text parts of the user's message, joined. */
function userText(ctx: RequestContext): string {
  return ctx.userMessage.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/** The v0.3 `AgentExecutor`: one {@link runTurn} per message; tasks/cancel stops it and publishes `canceled`. */
export class DemoExecutorV03 implements AgentExecutor {
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

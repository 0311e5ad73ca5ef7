import { A2AError } from '../errors.js';
import type { SurfaceView } from '../port/a2ui.js';
import type { TurnInput } from './inputs.js';

/** A person's action on an agent's A2UI surface (a button pressed, a form submitted). */
export interface SurfaceActionInput {
  /** The surface acted on, as the turn left it (`end.surfaces`, the view's `surfaces`). */
  surface: SurfaceView;
  /** The action's name, as the component's action names it. */
  name: string;
  /** The component the person used. */
  sourceComponentId: string;
  /** The action's context, as the component's action resolves it against the data model. */
  context?: Record<string, unknown>;
  /**
   * The surface's data model as the renderer holds it: sent (`metadata.a2uiClientDataModel`) only when
   * the agent created the surface with `sendDataModel`, and only with this action to that agent.
   */
  dataModel?: unknown;
  /** When it happened (ISO 8601); default now. */
  timestamp?: string;
}

/** What {@link surfaceAction} gives: the fields of the thread's next turn that carry the action. */
export type SurfaceActionAnswer = Pick<TurnInput, 'text' | 'data' | 'metadata' | 'actsOn'>;

const MEDIA_TYPE = 'application/a2ui+json';

/**
 * A surface's action as the agent that drew it expects it, for the thread's next turn
 * (`a2a.turn({ agent, handle, thread, ...surfaceAction({ surface, name, sourceComponentId }) })`):
 * one A2UI data part (`application/a2ui+json`, in `metadata.mimeType` and as its media type) holding
 * the `action` in the surface's version (v0.8: `userAction`), and the data model when the surface
 * asked for it. Send it to the agent whose turn drew the surface, on the same thread: its answer
 * comes as that turn's surface events. A surface the turn never saw created cannot be acted on here.
 * A surface that names its agent (the client's turns and history name it) gives `actsOn`: a turn to
 * any other agent refuses the action before it sends anything.
 */
export function surfaceAction(input: SurfaceActionInput): SurfaceActionAnswer {
  const { surface, name, sourceComponentId } = input;
  const created = surface.messages.find((message) => message.kind === 'createSurface' || message.kind === 'beginRendering');
  if (created === undefined) {
    throw new A2AError({
      kind: 'input',
      operation: 'turn',
      message: `the surface ${JSON.stringify(surface.surfaceId).slice(0, 80)} was never created in what the turn saw`,
    });
  }
  if (typeof name !== 'string' || name === '' || typeof sourceComponentId !== 'string' || sourceComponentId === '') {
    throw new A2AError({ kind: 'input', operation: 'turn', message: 'a surface action needs its name and its sourceComponentId' });
  }
  const action = {
    name,
    surfaceId: surface.surfaceId,
    sourceComponentId,
    timestamp: input.timestamp ?? new Date().toISOString(),
    context: input.context ?? {},
  };
  const legacy = created.kind === 'beginRendering';
  const message = legacy ? { userAction: action } : { ...(created.version === undefined ? {} : { version: created.version }), action };
  const answer: SurfaceActionAnswer = { text: '', data: [{ data: [message], mediaType: MEDIA_TYPE, metadata: { mimeType: MEDIA_TYPE } }] };
  if (surface.agent !== undefined) answer.actsOn = { surfaceId: surface.surfaceId, agent: surface.agent };
  const body = created.message[created.kind] as Record<string, unknown>;
  if (!legacy && body['sendDataModel'] === true && input.dataModel !== undefined) {
    answer.metadata = { a2uiClientDataModel: { version: created.version, surfaces: { [surface.surfaceId]: input.dataModel } } };
  }
  return answer;
}

/** Types of client-bodies.mjs, for the TypeScript tests. */
import type { GatewaySurfaceMessage, GatewaySurfaceView } from './client-surfaces.mjs';

/** An `input-required` or `auth-required` end's question, as the gateway sends it (sse.mjs). */
export interface GatewayInterrupt {
  kind: 'input' | 'auth';
  /** The task waiting for the answer. */
  taskId: string;
  /** The question's text. */
  text: string;
  /** The agent's requests for input (A2A 1.1 draft): `blocked` and `waiting` ones are open. */
  elicitations?: Array<{ id: string; state: 'waiting' | 'blocked' | 'resolved' | 'unknown' }>;
  /** The task's generation at the question (A2A 1.1 draft), when the agent keeps them. */
  generation?: number;
}

/** A person's action on a surface, as a message body carries it (the gateway builds the A2UI message from it). */
export interface GatewayAction {
  surfaceId: string;
  /** The action's name, as the component's action names it. */
  name: string;
  /** The component the person used. */
  sourceComponentId: string;
  /** The action's context, resolved against the data model. */
  context?: Record<string, unknown>;
  /** The surface's data model as the renderer holds it: sent to the agent only when the surface asked for it (`sendDataModel`). */
  dataModel?: unknown;
  /** ISO 8601. */
  timestamp?: string;
}

/** What {@link actionFields} takes: the action, without its surface. */
export type ActionInput = Omit<GatewayAction, 'surfaceId'>;

/** The fields of a message carrying an action ({@link actionFields}), spread into `followTurn`'s options. */
export interface ActionFields {
  action: GatewayAction;
  surface: GatewaySurfaceMessage;
}

/** What an answer's message names besides its text ({@link answerFields}). */
export interface AnswerFields {
  taskId: string;
  ifGenerationMatch?: number;
  elicitationIds?: string[];
}

/** The fields of a message answering `interrupt`: its task, its generation, the requests for input still open. */
export declare function answerFields(interrupt: GatewayInterrupt): AnswerFields;
/** The fields of a message carrying a person's action on `surface`; a `TypeError` when its messages hold no creation. */
export declare function actionFields(surface: GatewaySurfaceView, input: ActionInput): ActionFields;

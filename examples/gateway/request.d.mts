/** Types of request.mjs, for the TypeScript tests. */
import type { IncomingMessage } from 'node:http';
import type { ReplyPosition } from '../../dist/index.js';

export declare const MAX_KEY: number;
export declare const MAX_BODY: number;

export declare class Refusal extends Error {
  constructor(status: number, message: string, headers?: Record<string, string>, details?: Record<string, string | number>);
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Fields the JSON body carries beside `error`. */
  readonly details: Record<string, string | number>;
}

export declare const NAME_CHARS: number;
export declare const REASON_CHARS: number;
export declare function quote(value: unknown, max?: number): string;
export declare function isSafeId(value: unknown, max?: number): value is string;
export declare function threadKeyOf(segment: string): string;
export declare function optionalId(value: unknown, name: string): string | undefined;
export declare const MAX_ELICITATION_IDS: number;
export declare function answerOf(body: Record<string, unknown>): { taskId?: string; ifGenerationMatch?: number; elicitationIds?: string[] };
export declare function positionOf(id: string | string[] | null | undefined): ReplyPosition | undefined;
export declare function readJson(req: IncomingMessage): Promise<Record<string, unknown>>;
export declare function sentAtOf(value: string | null, messageId: string | undefined): number | undefined;

/** Types of sse.mjs, for the TypeScript tests. */
import type { TurnErrorEvent, TurnEvent } from '../../dist/index.js';

export declare const STREAM_HEADERS: Readonly<Record<string, string>>;
export declare function isFieldValue(value: string): boolean;
export declare function field(name: 'event' | 'id' | 'data' | 'retry', value: string): string;
export declare function comment(text: string): string;
export declare function eventFrame(event: TurnEvent | TurnErrorEvent, id: string | undefined): string;
export declare function publicError(error: { kind: string; retryable?: boolean; operation?: string }): {
  kind: string;
  message: string;
  retryable: boolean;
  operation?: string;
};

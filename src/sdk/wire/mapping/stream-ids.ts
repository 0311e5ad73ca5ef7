import type { StreamResponse } from '@a2a-js/sdk';

/**
 * What a stream has told so far (its first task and context ids), to fill what a later event leaves
 * out. The parse-less paths (`reader/scan.ts`, gRPC's
 * `bindings/grpc/scan.ts`) hand an id equal to one of these back as that same string: the ladder
 * compares ids on every event, and the same string compares at once.
 */
export interface StreamIds {
  taskId?: string;
  contextId?: string;
}

/** Remembers the stream's first task and context ids from `response`; gives `response` back. */
export function remember(response: StreamResponse, ids: StreamIds): StreamResponse {
  const payload = response.payload;
  if (payload?.$case === 'task') {
    ids.taskId ||= payload.value.id;
    ids.contextId ||= payload.value.contextId;
  } else if (payload?.$case === 'statusUpdate' || payload?.$case === 'artifactUpdate') {
    ids.taskId ||= payload.value.taskId;
    ids.contextId ||= payload.value.contextId;
  }
  return response;
}

import type { AgentEvent } from '../port/types.js';
import { fromSdkEvent } from './wire/mapping/from-sdk.js';
import { withDraftFields } from './wire/mapping/generation.js';
import { toStreamResponse } from './wire/reader/results.js';

/**
 * A push notification's body, parsed, as the agent event it carries: the v1.0 `StreamResponse`
 * (`{ task }`, `{ message }`, `{ statusUpdate }`, `{ artifactUpdate }`, as `@a2a-js/sdk` 1.x posts it
 * with `application/a2a+json`) or a bare v0.3 object (a `Task`, as `@a2a-js/sdk` 0.3 posts on every
 * change, or a message or an update, as 1.x's v0.3 serializer posts them), read as a stream's
 * result is. Throws a `protocol` A2AError for anything else.
 */
export function pushEvent(json: unknown): AgentEvent {
  return withDraftFields(fromSdkEvent(toStreamResponse(json, {})), json);
}

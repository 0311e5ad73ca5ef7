import { A2AError, isA2AError } from '../../errors.js';
import { VERSION_NOT_SUPPORTED } from '../../port/codes.js';
import type { ResolvedAgent } from './resolve.js';

/**
 * A refusal of a message call that names its method (`Unsupported method: message/stream`): what an
 * agent of the first A2A draft (before 0.2: `tasks/send`, `tasks/sendSubscribe`) answers every
 * method of 0.2 and later. @mastra/server 2.0.4 behind @mastra/deployer 0.3.4 says it so, as HTTP 400.
 */
const NAMES_THE_METHOD = /\bunsupported method\b[^a-z]*(message\/(stream|send)|SendStreamingMessage|SendMessage)\b/i;

/**
 * The `unsupported` error for an agent that speaks only the first A2A draft, when `error` (the turn's
 * first call failing before any answer) says so: the call was refused with HTTP 400 naming its method
 * as unsupported (in its message, or in the error it wraps: the SDK's blocking send puts the answer's
 * body in its own error, which the classified one keeps as its cause), by an agent whose card gives
 * no `protocolVersion` (first-draft cards have none; every card of 0.2.5 and later names one). Its code is VersionNotSupportedError's (-32009): the ladder
 * makes no blocking send after it. Undefined otherwise: the error stands as it is.
 */
export function firstDraftRefusal(resolved: ResolvedAgent, error: unknown): A2AError | undefined {
  if (!resolved.versionUnsaid || !isA2AError(error) || error.status !== 400 || !namesTheMethod(error)) return undefined;
  return new A2AError({
    kind: 'unsupported',
    retryable: false,
    // The client's verdict, as on a card with only versions older than allowed: no blocking send mends it.
    code: VERSION_NOT_SUPPORTED,
    operation: error.operation,
    agent: resolved.summary.url,
    status: 400,
    message: `this agent speaks the pre-0.2 A2A draft, which a4h-a2a does not speak (it refused ${error.operation === 'send' ? 'message/send' : 'message/stream'} with HTTP 400)`,
    cause: error,
  });
}

/** How deep in an error's causes the refusal's words are looked for: the classified error, the SDK's, one more. */
const CAUSES_READ = 3;

/** Whether `error`, or an error it wraps (a few deep), names the refused method as unsupported. */
function namesTheMethod(error: Error): boolean {
  let at: unknown = error;
  for (let depth = 0; depth < CAUSES_READ && at instanceof Error; depth += 1, at = at.cause) {
    if (NAMES_THE_METHOD.test(at.message)) return true;
  }
  return false;
}

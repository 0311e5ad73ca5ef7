import { type CardSummary, isA2AError } from '../../node/index.js';
import type { LeftNote } from '../turns/left-turn.js';
import { followCommand, shellQuote } from './shell-quote.js';
import { classifyError } from './envelope.js';
import { otherInterfaces } from './ways-out.js';

/** What a hint may name: the command that failed, the agent, the task it was about. */
export interface HintContext {
  /** The command, as typed after `a4h` (`send`, `task get`). */
  command: string;
  /** The agent reference the command was given. */
  agent?: string;
  /** The task the command was about, when one is known. */
  taskId?: string;
  /** The agent's card, when the command read it: an unreachable interface's hint names the others it offers. */
  card?: CardSummary | undefined;
  /** A turn a4h left (Ctrl-C, `--timeout`): what became of its task or message, and how to find out. */
  left?: LeftNote;
}

const DEBUG = 'add --debug to see the requests and the agent’s answers (credentials redacted)';

/** a4h's own version floor refused the card: the flag that lowers it, its variable and its config file line. */
const VERSION_FLOOR =
  '--a2a-version sets the oldest A2A version allowed (default 1.0): --a2a-version 0.3 allows an agent before 1.0 (a card that says 0.1, 0.2 or 0.3), as does A2ACLI_A2A_VERSION=0.3 in the environment or a line of a config file (a4h config show)';

/**
 * The envelope's `hint` for `error`: a short next step, a command to copy where there is one; null
 * when there is nothing useful to say. Never a credential's value: what the card asks for and what
 * kind of credential was sent, at most.
 */
export function hintFor(error: unknown, context: HintContext): string | null {
  const { code } = classifyError(error);
  // An agent's "not now" (429, 503) says when: that is the next step.
  const after = isA2AError(error) ? error.retryAfterMs : undefined;
  if (after !== undefined) return `the agent asks to be tried again in ${Math.ceil(after / 1000)} s`;
  const agent = context.agent ?? '<agent>';
  switch (code) {
    case 'A2ACLI_ERR_USAGE':
    case 'ExtensionSupportRequiredError': {
      // An extension the agent requires: the flag that activates it.
      const extensions = isA2AError(error) ? error.extensions : undefined;
      if (extensions !== undefined && extensions.length > 0)
        return `activate it with ${extensions.map((uri) => `--extension ${shellQuote(uri)}`).join(' ')}`;
      return code === 'A2ACLI_ERR_USAGE' ? `a4h ${context.command} --help` : DEBUG;
    }
    case 'A2ACLI_ERR_CARD_NOT_FOUND':
      return `check the agent reference: a host (its card is at /.well-known/agent-card.json), the card's URL, or a card file; ${DEBUG}`;
    case 'A2ACLI_ERR_CARD_INVALID':
      return `the card is not a valid A2A agent card; ${DEBUG}`;
    case 'A2ACLI_ERR_UNREACHABLE': {
      // The interface a4h chose is down: the others the card offers, each with the flag that picks it (never a silent switch).
      const others = isA2AError(error, 'network') && context.card !== undefined ? otherInterfaces(context.card) : undefined;
      return `is the agent running and reachable at ${agent}? ${others === undefined ? '' : `${others}; `}${DEBUG}`;
    }
    case 'A2ACLI_ERR_CREDENTIALS_MISSING': {
      const oauth = oauthHint(error);
      if (oauth !== undefined) return oauth;
      const schemes = isA2AError(error) ? error.auth?.schemes : undefined;
      const asks = schemes !== undefined && schemes.length > 0 ? `the agent asks for ${schemes.join(', ')}: ` : '';
      return `${asks}pass a credential with --bearer-env VAR or -H 'Name: value'`;
    }
    case 'A2ACLI_ERR_AUTH_FAILED':
      return 'the agent refused the credential sent: check it or get a new one';
    case 'A2ACLI_ERR_TIMEOUT':
      // A turn left at its deadline: its task got CancelTask, or none was named yet (and the message may still be acted on).
      // The command comes last, alone after its colon: a line pasted into a shell runs it and nothing else.
      if (context.left !== undefined)
        return [context.left.message, 'raise --timeout if it needs longer', context.left.hint].filter(Boolean).join('; ');
      if (tokenEndpoint(error))
        return `the token endpoint did not answer in time: is it up, and the right one (--oauth-token-url)? ${DEBUG}`;
      if (context.taskId === undefined) return 'raise --timeout';
      // send's wait at AUTH_REQUIRED ran out: the task is left waiting for the sign-in the agent asked for.
      if (isA2AError(error, 'timeout') && error.phase === 'auth-wait')
        return `sign in as the agent asked, then follow the task: ${followCommand(context.taskId, agent)}`;
      return `the task goes on at the agent: ${followCommand(context.taskId, agent)}`;
    case 'VersionNotSupportedError':
      // Refused on reading the card (nothing was sent): a4h's floor, not the agent's answer.
      return isA2AError(error) && error.operation === 'card' ? VERSION_FLOOR : DEBUG;
    case 'A4H_ERR_FOREIGN_TASK':
      return 'the task belongs to another conversation: name its --thread, or send without one';
    case 'A4H_ERR_CANCELLED':
      return context.left?.hint ?? null;
    default:
      return DEBUG;
  }
}

/** Whether `error` is about the OAuth token endpoint (its request, its answer). */
function tokenEndpoint(error: unknown): boolean {
  return error instanceof Error && error.message.includes('the token endpoint ');
}

/**
 * The next step for an OAuth client that got no token: the card's token URL on another origin (name
 * it, if it is your identity provider's), or a token endpoint that refused the client or could not be
 * used (check the client). Undefined for any other error.
 */
function oauthHint(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const elsewhere = /the token URL (\S+) of the card's scheme .* is on another origin than the agent/.exec(error.message);
  if (elsewhere !== null) {
    return `if ${shellQuote(elsewhere[1]!)} is your identity provider's token endpoint, name it: --oauth-token-url ${shellQuote(elsewhere[1]!)}`;
  }
  if (tokenEndpoint(error) || error.message.includes('the OAuth client configured for')) {
    return `check the OAuth client (--oauth-client-id, --oauth-client-secret-env) and its token URL (--oauth-token-url); ${DEBUG}`;
  }
  return undefined;
}

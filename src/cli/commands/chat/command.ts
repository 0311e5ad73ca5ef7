import { lastValueFrom } from 'rxjs';
import { type A2AClient, createA2A, missingExtensions } from '../../../node/index.js';
import { THREAD_AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, REACH_USAGE } from '../../reach/agent-options.js';
import { ChatSession } from './session.js';
import { chatSettings, DEFAULT_CHAT_HISTORY, type ChatSettings } from './settings.js';
import { shellQuote } from '../../output/shell-quote.js';
import { terminalLine } from '../../output/terminal-text.js';
import { clientReach } from '../../reach/debug-client.js';
import { reportError } from '../../core/errors.js';
import { exitStatusOf } from '../../output/envelope.js';
import { defineCommand, type Call } from '../../core/command.js';
import { notice, type Io } from '../../core/io.js';
import { stderrLogger } from '../../core/logger.js';
import { DEFAULT_THREAD } from '../../core/options.js';
import { DEBUG_OPTIONS, TASK_ID_OPTIONS } from '../../core/flags.js';

/** The flags `a4h chat` takes (its usage lists each; a test keeps them so). */
export const CHAT_OPTIONS = {
  ...THREAD_AGENT_OPTIONS,
  ...TASK_ID_OPTIONS,
  ...DEBUG_OPTIONS,
  history: { type: 'string' },
} as const;

/** `a4h chat`: a greeting, then one turn per line (read from stdin) until /quit, Ctrl-C at the prompt, or the end of input. */
export const chat = defineCommand({
  name: 'chat',
  usage: `Usage: a4h chat <agent> [-a REF] [--thread KEY] [--handle NAME] [--task-id ID] [--history N] [--debug] [--extension URI]…
                [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                [-H 'Name: value']… [--bearer-env VAR]
                [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]] [--trust-jwks FILE|URL]… [--require-signed-card]
                ${CONNECTION_SYNOPSIS}

An interactive chat. Replies stream in as they arrive. Ctrl-C during a reply leaves that turn
(CancelTask for the task the agent named; it says what it left); Ctrl-C at the prompt, /quit or end of input leaves. Lines can be
piped in. Without --thread the thread "${DEFAULT_THREAD}" is used, so starting again continues the
conversation. It first shows the thread's last exchanges, dimmed on stderr (--history N, default
${DEFAULT_CHAT_HISTORY}; 0 for none; an agent that cannot list them, A2A v0.3, shows none), then a reply
still in progress on the thread, or a question the agent is waiting on, under what you said ("you: …").
--task-id ID: your first line continues that task (--task is taken as it). /attach PATH sends a file with your next
message; the agent's files and data parts show as one line each ([file] name (mediaType, N bytes)),
and /save DIR writes the last reply's into DIR. /usage prints the last turn's usage and this chat's sum,
as the agent reported them. /help lists the chat's commands (//text sends a line that starts with a slash). -H, --bearer-env and the --oauth flags give the agent
credentials, --extension activates an extension on every turn, as for send. The identity secret
comes from A4H_IDENTITY_SECRET. --debug logs each request and answer on stderr (gRPC calls too),
every credential redacted. --verbose shows an error's causes.
${REACH_USAGE}`,
  options: CHAT_OPTIONS,
  run: (call) => chatOn(call, process.stdin),
});

/** The chat on `input`'s lines. */
export async function chatOn(
  { values, positionals, io, about }: Call<typeof CHAT_OPTIONS>,
  input: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<number> {
  const settings = chatSettings(values, positionals);
  about.agent = settings.agent;
  const logger = stderrLogger(io, settings.verbose);
  const reach = clientReach(io, await agentOptions(values, settings.agent, io), values.debug === true, logger);
  const client = createA2A({ logger, ...reach.options });
  try {
    try {
      await greet(io, client, settings, { threadNamed: values.thread !== undefined, interactive: input.isTTY === true });
    } catch (error) {
      reportError(io, error, settings.verbose);
      return exitStatusOf(error);
    }
    return await new ChatSession(io, client, settings, input).run();
  } finally {
    await client.close();
    await reach.close();
  }
}

/**
 * Says who the chat talks to (name, protocol, transport, thread) and, when the card requires an
 * extension the chat does not activate, which `--extension` its turns need. Fails when the card
 * cannot be had.
 */
async function greet(
  io: Io,
  client: A2AClient,
  settings: ChatSettings,
  { threadNamed, interactive }: { threadNamed: boolean; interactive: boolean },
): Promise<void> {
  const card = await lastValueFrom(client.card(settings.agent));
  const how = `A2A ${card.protocolVersion}, ${card.transport}${card.streaming ? ', streaming' : ''}`;
  const other = threadNamed ? '' : ' (--thread KEY for another)';
  // The card's name and the URIs it requires are the agent's: sanitized before the chat's own colours.
  notice(io, `chatting with ${io.style.bold(terminalLine(card.name))} (${terminalLine(how)}) on thread "${settings.thread}"${other}`);
  const missing = missingExtensions(card, settings.extensions.extensions ?? [], 'turn')?.extensions ?? [];
  if (missing.length > 0) {
    const flags = missing.map((uri) => `--extension ${shellQuote(uri)}`).join(' ');
    notice(io, io.style.yellow(terminalLine(`the agent requires ${missing.join(', ')}: its turns are refused without ${flags}`)));
  }
  if (interactive) notice(io, io.style.dim('Ctrl-C cancels a reply; Ctrl-C at the prompt or /quit leaves'));
}

/**
 * The flags every command spells the same way, in one place: each command's options table takes them
 * from here (a test walks every command's --help and checks they are spelled alike; docs/cli.md has
 * the table of commands × flags).
 */
import { agentRef } from '../reach/agent-ref.js';
import { UsageError } from './io.js';

/** `--verbose` (an error's causes) and `-h/--help`: every command. `-v` is `--version`, never verbose. */
export const COMMON_OPTIONS = {
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `-a/--agent-card REF`: the agent, on every command that talks to one (the positional does the same). */
export const AGENT_REF_OPTIONS = {
  'agent-card': { type: 'string', short: 'a' },
} as const;

/** `-o/--output text|json`: every command that prints a result (`--stream` is the command's own). */
export const OUTPUT_OPTIONS = {
  output: { type: 'string', short: 'o' },
} as const;

/** `--json`: a4h's turn events, one JSON object per line; only where a turn runs (send, resume). */
export const TURN_JSON_OPTIONS = {
  json: { type: 'boolean' },
} as const;

/** `--task-id ID`: wherever a task is named (`--task` is taken as it, said once on stderr). */
export const TASK_ID_OPTIONS = {
  'task-id': { type: 'string' },
} as const;

/** `--debug`: each request and answer on stderr, credentials redacted. */
export const DEBUG_OPTIONS = {
  debug: { type: 'boolean' },
} as const;

/** What the usages say of the agent: the one rule of every command. */
export const AGENT_REF_USAGE = `The agent (<agent>, or -a/--agent-card REF): a URL, or a bare host or host:port (http:// on
loopback, https:// elsewhere; its card at /.well-known/agent-card.json).`;

/**
 * The agent a command names: `-a/--agent-card REF` when given, else its first positional; the
 * positionals left after it. A usage error naming the command when there is none.
 */
export function agentArg(
  values: { 'agent-card'?: string | undefined },
  positionals: readonly string[],
  command: string,
): { ref: string; rest: string[] } {
  const given = values['agent-card'];
  if (given !== undefined) {
    if (given.trim() === '') throw new UsageError('-a/--agent-card needs the agent: a URL, a host:port or a card file');
    return { ref: given, rest: [...positionals] };
  }
  const [ref, ...rest] = positionals;
  if (ref === undefined || ref.trim() === '')
    throw new UsageError(`${command} needs the agent: its URL or host:port (or -a/--agent-card REF)`);
  return { ref, rest };
}

/**
 * The URL of the agent a reference names, by the one rule of every command ({@link agentRef}): a URL
 * as it is, a bare host or `host:port` with `http://` on loopback and `https://` elsewhere. A card
 * file is a usage error here: only `card` and `task` read one.
 */
export function agentUrl(ref: string, command: string): string {
  const target = agentRef(ref);
  if (target.kind === 'file') {
    throw new UsageError(`${command} needs the agent's URL or host:port, not a card file (a4h card and a4h task read one)`);
  }
  return target.url;
}

/**
 * The one agent a command that talks to it by URL names (`<agent>` or `-a`), said in `about` (a
 * failure's report names it): its URL by {@link agentUrl}'s rule. A usage mistake when there is none,
 * or more positionals than the agent.
 */
export function oneAgent(call: {
  values: { 'agent-card'?: string | undefined };
  positionals: readonly string[];
  command: string;
  about: { agent?: string };
}): string {
  const { ref, rest } = agentArg(call.values, call.positionals, call.command);
  if (rest.length > 0) throw new UsageError(`${call.command} needs exactly one agent`);
  return (call.about.agent = agentUrl(ref, call.command));
}

import { AGENT_OPTIONS } from '../../reach/agent-options.js';
import { openAgentPort, type AgentPort } from '../../reach/agent-port.js';
import type { CredentialFlags } from '../../reach/credentials.js';
import { UsageError } from '../../core/io.js';
import { durationMs as parseDuration } from '../../core/options.js';
import { defineCommand, type Call, type Command } from '../../core/command.js';
import type { Options } from '../../core/options.js';
import { AGENT_REF_OPTIONS, COMMON_OPTIONS, OUTPUT_OPTIONS, TASK_ID_OPTIONS } from '../../core/flags.js';
import type { TrustFlags } from '../../reach/trust.js';
import { interfaceOrderOf, WIRE_OPTIONS, WIRE_USAGE, type WireFlags } from '../../reach/wire-flags.js';

/** Each request's own bound in the task commands: 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The flags every `a4h task …` command takes: the agent (`-a`), its credentials and signed-card trust, the output format, --verbose, help. */
export const TASK_OPTIONS = {
  ...AGENT_REF_OPTIONS,
  ...AGENT_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...WIRE_OPTIONS,
  ...COMMON_OPTIONS,
} as const;

/** The flags of a task command that names one task: {@link TASK_OPTIONS} and `--task-id` (the positional's other spelling). */
export const ONE_TASK_OPTIONS = { ...TASK_OPTIONS, ...TASK_ID_OPTIONS } as const;

/** The usage lines the task commands share. */
export const TASK_COMMON_USAGE = `  -a, --agent-card REF   the agent: a host (its card at /.well-known/agent-card.json), a URL, or a card file
  -o, --output FORMAT    text (default: "Label: value" lines) or json (the protocol's own objects)
  --verbose              an error's causes too
  -H 'Name: value', --bearer-env VAR   credentials; --trust-jwks FILE|URL, --require-signed-card   signed cards
${WIRE_USAGE}`;

/**
 * A task command: the specification's (its failures as its fields: `Error:`, `Message:`, `Hint:`), its
 * usage followed by the lines every task command shares ({@link TASK_COMMON_USAGE}).
 */
export function defineTaskCommand<const O extends Options>(command: Omit<Command<O>, 'failures'>): Command<O> {
  return defineCommand({ ...command, usage: `${command.usage}\n${TASK_COMMON_USAGE}`, failures: 'fields' });
}

/** The agent reference `-a` gave; a usage error without it. */
export function agentOf(values: { 'agent-card'?: string | undefined }, command: string): string {
  const ref = values['agent-card'];
  if (ref === undefined || ref.trim() === '') throw new UsageError(`${command} needs the agent: -a/--agent-card REF`);
  return ref;
}

/** The flags the task commands read the agent and its connection from. */
type TaskFlags = typeof TASK_OPTIONS & typeof TASK_ID_OPTIONS;

/** The one task a command names (its positional or `--task-id`) and the agent (`-a`): usage mistakes otherwise. */
export function taskOf(call: Pick<Call<TaskFlags>, 'values' | 'positionals' | 'command'>): { agent: string; taskId: string } {
  return { taskId: taskIdOf(call.values, call.positionals, call.command), agent: agentOf(call.values, call.command) };
}

/**
 * A command on one task: its id and the agent read from the flags (usage mistakes, before anything is
 * opened), then `body` on the agent's port with them ({@link onAgent}).
 */
export function onTask(
  call: Pick<Call<TaskFlags>, 'values' | 'positionals' | 'command' | 'io' | 'about'>,
  body: (agent: AgentPort, target: { agent: string; taskId: string }) => Promise<number>,
): Promise<number> {
  const target = taskOf(call);
  return onAgent(call, target, (agent) => body(agent, target));
}

/**
 * Runs `body` on the agent's port, `target` said in the call's `about` first (a failure's report names
 * the agent and the task), and returns its exit status; the port is closed either way. A failure is
 * the command's to report (core/command.ts).
 */
export async function onAgent(
  call: Pick<Call<TaskFlags>, 'io' | 'about'> & { values: CredentialFlags & TrustFlags & WireFlags },
  target: { agent: string; taskId?: string },
  body: (agent: AgentPort) => Promise<number>,
): Promise<number> {
  Object.assign(call.about, target);
  // A bad --transport or --a2a-version is a usage error, before anything is opened.
  interfaceOrderOf(call.values);
  const agent = await openAgentPort(target.agent, { ...call.values, wire: call.values }, call.io);
  try {
    return await body(agent);
  } finally {
    await agent.close();
  }
}

/**
 * A duration flag of a task command, as every command takes one ({@link parseDuration}: `2` or `2s`,
 * `500ms`, `1.5m`, `1h`), at most a day; `fallbackMs` when not given.
 */
export function durationMs(name: string, value: string | undefined, fallbackMs: number): number {
  return value === undefined ? fallbackMs : parseDuration(name, value, 86_400_000);
}

/** A whole-number flag within bounds; a usage error otherwise. */
export function wholeNumber(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** The one task id a command takes: its positional argument, or `--task-id ID` (not both). */
export function taskIdOf(values: { 'task-id'?: string | undefined }, positionals: string[], command: string): string {
  const [taskId, ...rest] = values['task-id'] === undefined ? positionals : [values['task-id'], ...positionals];
  if (taskId === undefined || taskId.trim() === '' || rest.length > 0) throw new UsageError(`${command} needs exactly one task id`);
  return taskId;
}

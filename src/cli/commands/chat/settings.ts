import { agentArg, agentUrl } from '../../core/flags.js';
import { UsageError } from '../../core/io.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, extensionsFrom, nonEmpty } from '../../core/options.js';

/** The past exchanges `a4h chat` shows when it starts, unless `--history N` says otherwise. */
export const DEFAULT_CHAT_HISTORY = 5;

/** What a chat talks to, on which thread, with which flags. */
export interface ChatSettings {
  /** The agent's URL (a bare host:port resolved as on every command). */
  agent: string;
  /** `--handle`. */
  handle: string;
  /** `--thread`. */
  thread: string;
  /** `--extension`s, as the client's inputs take them (nothing when none was given). */
  extensions: { extensions?: readonly string[] };
  /** `--verbose`: error causes, and the errors of what the chat reads at start (its history, the resume). */
  verbose: boolean;
  /** `--task-id`: the task the first message continues (then nothing is resumed at start). */
  task?: string;
  /** `--history N`: the thread's past exchanges shown at start; 0 reads none. */
  history: number;
}

/** The chat's flags, as the parser gives them. */
export interface ChatFlags {
  thread?: string;
  handle?: string;
  extension?: string[];
  verbose?: boolean;
  'task-id'?: string;
  'agent-card'?: string;
  history?: string;
}

/** The chat's settings from its flags and positionals; a usage error for a missing URL, an empty value or a bad `--history`. */
export function chatSettings(values: ChatFlags, positionals: string[]): ChatSettings {
  const { ref, rest } = agentArg(values, positionals, 'chat');
  if (rest.length > 0) throw new UsageError('chat needs exactly one agent');
  const agent = agentUrl(ref, 'chat');
  const history = values.history === undefined ? DEFAULT_CHAT_HISTORY : Number(values.history);
  if (!/^\d{1,3}$/.test(values.history ?? '0') || history > 100) throw new UsageError('--history must be a whole number from 0 to 100');
  return {
    agent,
    thread: nonEmpty('thread', values.thread, DEFAULT_THREAD),
    handle: nonEmpty('handle', values.handle, DEFAULT_HANDLE),
    extensions: extensionsFrom(values),
    verbose: values.verbose === true,
    ...(values['task-id'] === undefined ? {} : { task: nonEmpty('task-id', values['task-id'], '') }),
    history,
  };
}

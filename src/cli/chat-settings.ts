import { UsageError } from './io.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, extensionsFrom, nonEmpty } from './options.js';

/** What a chat talks to, on which thread, with which flags. */
export interface ChatSettings {
  /** The agent's URL. */
  agent: string;
  /** `--handle`. */
  handle: string;
  /** `--thread`. */
  thread: string;
  /** `--extension`s, as the client's inputs take them (nothing when none was given). */
  extensions: { extensions?: readonly string[] };
  /** `--verbose`: error causes, and the errors of the resume at start. */
  verbose: boolean;
  /** `--task`: the task the first message continues (then nothing is resumed at start). */
  task?: string;
}

/** The chat's flags, as the parser gives them. */
export interface ChatFlags {
  thread?: string;
  handle?: string;
  extension?: string[];
  verbose?: boolean;
  task?: string;
}

/** The chat's settings from its flags and positionals; a usage error for a missing URL, or an empty value. */
export function chatSettings(values: ChatFlags, positionals: string[]): ChatSettings {
  const [agent, ...rest] = positionals;
  if (agent === undefined || rest.length > 0) throw new UsageError('chat needs exactly one agent URL');
  return {
    agent,
    thread: nonEmpty('thread', values.thread, DEFAULT_THREAD),
    handle: nonEmpty('handle', values.handle, DEFAULT_HANDLE),
    extensions: extensionsFrom(values),
    verbose: values.verbose === true,
    ...(values.task === undefined ? {} : { task: nonEmpty('task', values.task, '') }),
  };
}

import { defineGroup, runnable } from '../../core/command.js';
import { didYouMean } from '../../core/suggest.js';
import { taskCancel } from './cancel.js';
import { taskDownload } from './download.js';
import { taskGet } from './get.js';
import { taskList } from './list.js';
import { taskPushConfig } from './push-config.js';
import { taskSubscribe } from './subscribe.js';

/** `a4h task <command>`: the task commands, by name. */
export const task = defineGroup(
  {
    name: 'task',
    usage: `Usage: a4h task <get|cancel|list|subscribe|download|push-config> … -a REF

Works on an agent's tasks by their ids, as the A2A CLI specification names the commands (nothing is
remembered between runs: pass the ids the agent gave):
  a4h task get <task-id>|--task-id ID -a REF [--history N] [--wait [--poll-interval D] [--timeout D]]
  a4h task cancel <task-id> -a REF
  a4h task list -a REF [--context-id ID] [--status STATE] [--page-size N] [--page-token T]
  a4h task subscribe <task-id> -a REF [--stream] [--push [--push-listen HOST:PORT] [--push-url URL]]
  a4h task download <task-id> -a REF [--dir DIR]
  a4h task push-config create|get|list|delete <task-id> [<config-id>] -a REF [--url URL] [--token-env VAR]
Each takes -o text|json and --verbose (an error's causes); a task id is the positional or --task-id ID
(--task is taken as it). -a REF: a URL, a bare host:port or a card file. a4h task <command> --help
shows its options and defaults.`,
    commands: {
      get: runnable(taskGet),
      cancel: runnable(taskCancel),
      list: runnable(taskList),
      subscribe: runnable(taskSubscribe),
      download: runnable(taskDownload),
      'push-config': runnable(taskPushConfig),
    },
  },
  didYouMean,
);

import { lastValueFrom, type Observable } from 'rxjs';
import { type PushConfig, type PushConfigPage, type PushConfigPort, within } from '../../../node/index.js';
import { UsageError } from '../../core/io.js';
import type { Call } from '../../core/command.js';
import { printResult } from '../../output/print.js';
import { writeDocument, writeRecord, type TextRecord } from '../../output/output.js';
import { agentOf, defineTaskCommand, onAgent, ONE_TASK_OPTIONS, REQUEST_TIMEOUT_MS, wholeNumber } from './common.js';

/** The flags `a4h task push-config` takes. */
export const TASK_PUSH_CONFIG_OPTIONS = {
  ...ONE_TASK_OPTIONS,
  url: { type: 'string' },
  'config-id': { type: 'string' },
  'token-env': { type: 'string' },
  'page-size': { type: 'string' },
  'page-token': { type: 'string' },
} as const;

/** `a4h task push-config <create|get|list|delete>`. */
export const taskPushConfig = defineTaskCommand({
  name: 'task push-config',
  usage: `Usage: a4h task push-config create <task-id>|--task-id ID -a REF --url URL [--config-id ID] [--token-env VAR] [-o text|json]
       a4h task push-config get <task-id>|--task-id ID <config-id> -a REF [-o text|json]
       a4h task push-config list <task-id>|--task-id ID -a REF [--page-size N] [--page-token T] [-o text|json]
       a4h task push-config delete <task-id>|--task-id ID <config-id> -a REF [-o text|json]

Manages where the agent posts a task's updates (its push-notification configs: A2A's Create, Get,
List and Delete TaskPushNotificationConfig). An agent whose card does not offer push notifications
answers PushNotificationNotSupportedError. Prints each config's id, task id and URL (a token only as
"(set)"); -o json prints the protocol's TaskPushNotificationConfig (list: its
ListTaskPushNotificationConfigsResponse) without the token: secrets are never printed.
  --url URL              create: the webhook the agent posts to (required)
  --config-id ID         create: the config's id (default: the agent picks one)
  --token-env VAR        create: the token the agent sends with each notification, from an environment
                         variable (out of shell history; default: none)
  --page-size N, --page-token T   list: one page (default: the agent's size, the first page)`,
  options: TASK_PUSH_CONFIG_OPTIONS,
  run: pushConfigTask,
});

async function pushConfigTask(call: Call<typeof TASK_PUSH_CONFIG_OPTIONS>): Promise<number> {
  const { values, positionals, io, mode } = call;
  // The task id: the positional after the verb, or --task-id (the other spelling every task command takes).
  const [verb, ...after] = positionals;
  const [taskId, configId, ...rest] = values['task-id'] === undefined ? after : [values['task-id'], ...after];
  const needsConfig = verb === 'get' || verb === 'delete';
  if (!['create', 'get', 'list', 'delete'].includes(verb ?? '')) throw new UsageError('task push-config takes create, get, list or delete');
  if (taskId === undefined || rest.length > 0 || (needsConfig ? configId === undefined : configId !== undefined)) {
    throw new UsageError(`task push-config ${verb} needs ${needsConfig ? 'a task id and a config id' : 'one task id'}`);
  }
  const agent = agentOf(values, `task push-config ${verb}`);
  const request = pushCall(verb!, taskId, configId, values, io.env);
  return onAgent(call, { agent, taskId }, async ({ port }) => {
    const answer = await lastValueFrom(
      request(port).pipe(within<PushConfig | PushConfigPage | true>(REQUEST_TIMEOUT_MS, 'poll-request', 'push-config')),
    );
    if (answer === true) {
      if (mode.format === 'json') writeDocument(io, {});
      else
        writeRecord(io, {
          fields: [
            ['Task ID', taskId],
            ['Config ID', configId],
            ['Deleted', 'yes'],
          ],
        });
    } else if ('configs' in answer) {
      if (mode.format === 'json')
        writeDocument(io, {
          configs: answer.configs.map(protocolConfig),
          ...(answer.nextPageToken ? { nextPageToken: answer.nextPageToken } : {}),
        });
      else {
        for (const config of answer.configs) writeRecord(io, configRecord(config));
        if (answer.nextPageToken) writeRecord(io, { fields: [['Next Page Token', answer.nextPageToken]] });
      }
    } else {
      printResult(io, mode, protocolConfig(answer), configRecord(answer));
    }
    return 0;
  });
}

type Values = {
  url?: string | undefined;
  'config-id'?: string | undefined;
  'token-env'?: string | undefined;
  'page-size'?: string | undefined;
  'page-token'?: string | undefined;
};

/** The call a verb makes, its flags checked before anything is sent. */
function pushCall(
  verb: string,
  taskId: string,
  configId: string | undefined,
  values: Values,
  env: NodeJS.ProcessEnv,
): (port: PushConfigPort) => Observable<PushConfig | PushConfigPage | true> {
  switch (verb) {
    case 'create': {
      const url = values.url;
      if (url === undefined || !/^https?:\/\//.test(url)) throw new UsageError('task push-config create needs --url with an http(s) URL');
      const variable = values['token-env'];
      const token = variable === undefined ? undefined : env[variable];
      if (variable !== undefined && (token === undefined || token === ''))
        throw new UsageError(`--token-env ${variable}: that environment variable is not set or empty`);
      const config = { taskId, url, ...(values['config-id'] ? { id: values['config-id'] } : {}), ...(token ? { token } : {}) };
      return (port) => port.createPushConfig(config);
    }
    case 'get':
      return (port) => port.getPushConfig(taskId, configId!);
    case 'delete':
      return (port) => port.deletePushConfig(taskId, configId!);
    default: {
      const pageSize = wholeNumber('page-size', values['page-size'], 1, 100);
      const page = {
        ...(pageSize === undefined ? {} : { pageSize }),
        ...(values['page-token'] ? { pageToken: values['page-token'] } : {}),
      };
      return (port) => port.listPushConfigs(taskId, page);
    }
  }
}

/** A config as the protocol's TaskPushNotificationConfig JSON, but its secrets: the token and the webhook's credentials are never printed. */
function protocolConfig(config: PushConfig): Record<string, unknown> {
  const { authentication, token: _token, ...rest } = config;
  return authentication === undefined ? rest : { ...rest, authentication: { scheme: authentication.scheme } };
}

/** A config's record: its ids and URL, whether a token is set. */
function configRecord(config: PushConfig): TextRecord {
  return {
    fields: [
      ['Config ID', config.id],
      ['Task ID', config.taskId],
      ['URL', config.url],
      ['Token', config.token === undefined ? undefined : '(set)'],
      ['Authentication', config.authentication?.scheme],
    ],
  };
}

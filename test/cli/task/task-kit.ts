/** The task commands' tests' kit: tasks started with the SDK's raw client, and the `Label: value` fields of text output. */
import type { Client } from '@a2a-js/sdk/client';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { vi } from 'vitest';
import { useAgent } from '../../agent-rig.js';
import { runCliWithin } from '../run-cli.js';
import { connect, userRequest } from '../../../fixtures/sdk-client.js';

/** How a task is started: on which mount, waiting for it to settle or not, in which context (a fresh one by default). */
export interface StartTaskOptions {
  mount?: string;
  wait?: boolean;
  contextId?: string;
}

/**
 * Starts tasks on `agent()` with the SDK's raw client (one client per mount, made on first use; `defaultMount` when
 * none is named), waiting for each to settle only when told. Each resolves with the task's id and contextId.
 */
export function taskStarter(
  agent: () => FixtureAgent,
  defaultMount: string,
): (text: string, options?: StartTaskOptions) => Promise<{ id: string; contextId: string }> {
  const clients = new Map<string, Client>();
  return async (text, options = {}) => {
    const mount = options.mount ?? defaultMount;
    const client = clients.get(mount) ?? (await connect(agent(), mount));
    clients.set(mount, client);
    const request = userRequest(text, { contextId: options.contextId ?? `ctx-${Math.random()}` });
    request.configuration!.returnImmediately = options.wait !== true;
    const answer = await client.sendMessage(request);
    if (!('status' in answer)) throw new Error('no task');
    return { id: answer.id, contextId: answer.contextId };
  };
}

/** The first `Label: value` field of text output. */
export const field = (stdout: string, label: string): string | undefined => new RegExp(`^${label}: (.*)$`, 'm').exec(stdout)?.[1];

/** Every `Label: value` field of text output, in order. */
export const fields = (stdout: string, label: string): string[] =>
  [...stdout.matchAll(new RegExp(`^${label}: (.*)$`, 'gm'))].map((m) => m[1]!);

/** `runCli` with room for a process that starts slowly on a machine busy with other suites. */
export const runCli = runCliWithin(60_000);

/**
 * The agent `start` gives for the calling file's tests (told to `use`), each test given 120 s (processes start slowly
 * on a machine busy with other suites), and a starter of tasks on it
 * ({@link taskStarter}, `defaultMount` when a task names none).
 */
export function useTaskAgent(
  start: () => Promise<FixtureAgent>,
  defaultMount: string,
  use: (agent: FixtureAgent) => void,
): ReturnType<typeof taskStarter> {
  vi.setConfig({ testTimeout: 120_000 });
  let agent: FixtureAgent | undefined;
  useAgent(start, (a) => {
    agent = a;
    use(a);
  });
  return taskStarter(() => {
    if (agent === undefined) throw new Error('the agent did not start');
    return agent;
  }, defaultMount);
}

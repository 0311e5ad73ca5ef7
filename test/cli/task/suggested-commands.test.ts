/**
 * The commands `a4h` suggests (to follow a task sent with `--async`, to answer a task waiting for
 * input, the `--timeout` hint) quote the agent's task id for the shell: an agent whose task ids
 * carry shell syntax (`t1;touch PWNED`, `$(…)`, a backtick, a single quote) gets nothing run when a
 * person pastes one. Each suggested line is run with `sh -c` in a directory of its own, `a4h` on
 * PATH a script that only writes down its arguments: no PWNED file appears, and `a4h` got the id as
 * one argument, exactly.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliWithin } from '../run-cli.js';

vi.setConfig({ testTimeout: 60_000 });
const runCli = runCliWithin(45_000);

/** Task ids with shell syntax and no control character (those are the reader's protocol errors). */
const IDS = ['t1;touch PWNED', '$(touch PWNED2)', 't3`touch PWNED3`', "t4';touch PWNED4;'"];

let server: Server;
let agent: string;

/**
 * A v1.0 JSON-RPC agent on 127.0.0.1 whose task id is the text of the message it is sent: a
 * SendMessage with `returnImmediately` answers the task submitted; a stream tells the task working
 * and then says nothing more (a `--timeout` ends it), or at `/wait/` tells it waiting for input and ends.
 */
function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const mount = req.url?.startsWith('/wait/') ? 'wait/' : '';
  if (req.method === 'GET') {
    const card = {
      name: 'shell ids',
      description: 'Task ids with shell syntax.',
      supportedInterfaces: [{ url: `${agent}${mount}a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
      signatures: [],
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
    return;
  }
  const call = JSON.parse(body) as {
    id: number;
    method: string;
    params: { id?: string; message?: { contextId?: string; parts: { text: string }[] } };
  };
  const task = (id: string, state: string) => ({
    id,
    contextId: call.params.message?.contextId ?? 'ctx-shell',
    status: { state, timestamp: new Date().toISOString() },
    history: [],
  });
  const reply = (result: unknown): void =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
  const id = call.params.message?.parts[0]?.text ?? call.params.id ?? '';
  switch (call.method) {
    case 'SendMessage':
      return reply({ task: task(id, 'TASK_STATE_SUBMITTED') });
    case 'SendStreamingMessage':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { task: task(id, 'TASK_STATE_WORKING') } })}\n\n`);
      if (mount === 'wait/') {
        const waiting = { taskId: id, contextId: task(id, '').contextId, status: { state: 'TASK_STATE_INPUT_REQUIRED' } };
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { statusUpdate: waiting } })}\n\n`);
      }
      return; // else nothing more, until the client leaves
    case 'CancelTask':
      return reply(task(id, 'TASK_STATE_CANCELED'));
    default:
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'no' } }));
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  agent = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The command lines `a4h` suggested on stderr (after "follow it with:", "answer it with:", the timeout hint). */
function suggested(stderr: string): string[] {
  return [
    ...stderr.matchAll(/(?:follow it with|answer it with|the task goes on at the agent|see what the agent made of it): (a4h .*)$/gm),
  ].map((m) => m[1]!);
}

/**
 * Runs `line` with `sh -c` in a new directory, `a4h` on PATH a script that writes down its arguments
 * and does nothing else: the files the line left in the directory, and the arguments `a4h` got.
 */
async function paste(line: string): Promise<{ files: string[]; args: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'a4h-paste-'));
  const bin = join(dir, 'bin');
  const work = join(dir, 'work');
  await Promise.all([mkdir(bin), mkdir(work)]);
  const argsFile = join(dir, 'args');
  await writeFile(join(bin, 'a4h'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > '${argsFile}'\n`);
  await chmod(join(bin, 'a4h'), 0o755);
  await promisify(execFile)('sh', ['-c', line], { cwd: work, env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
  const args = (await readFile(argsFile, 'utf8')).split('\0').slice(0, -1);
  return { files: await readdir(work), args };
}

describe('suggested commands quote the agent’s task id for the shell', () => {
  it.each(IDS)('send --async with task id %j: "follow it with" runs a4h task get with the id, nothing else', async (id) => {
    const { code, stderr } = await runCli(['send', agent, '--async', '--text', id]);
    expect(code).toBe(0);
    const lines = suggested(stderr);
    expect(lines).toHaveLength(1);
    const { files, args } = await paste(lines[0]!);
    expect(files).toEqual([]);
    expect(args).toEqual(['task', 'get', id, '-a', agent, '--wait']);
  });

  it.each(IDS)('send, a task waiting for input with id %j: "answer it with" sends to that task id', async (id) => {
    const { code, stderr } = await runCli(['send', `${agent}wait/`, '--text', id]);
    expect(code).toBe(0);
    const lines = suggested(stderr);
    expect(lines).toHaveLength(1);
    const { files, args } = await paste(lines[0]!);
    expect(files).toEqual([]);
    expect(args).toEqual(['send', `${agent}wait/`, '--task-id', id, '--text', '<your answer>']);
  });

  it.each(IDS)(
    'send --stream --timeout, task id %j: the hint (CancelTask sent) runs a4h task get with the id, nothing else',
    async (id) => {
      const { code, stderr } = await runCli(['send', agent, '--stream', '--timeout', '1s', '--text', id]);
      expect(code).toBe(5);
      const lines = suggested(stderr);
      expect(lines).toHaveLength(1);
      const { files, args } = await paste(lines[0]!);
      expect(files).toEqual([]);
      expect(args).toEqual(['task', 'get', id, '-a', agent]);
    },
  );
});

import { createInterface } from 'node:readline';
import { lastValueFrom } from 'rxjs';
import { createA2A } from '../../node/create-a2a.js';
import type { TurnEvent } from '../../port/events.js';
import { ChatFiles } from '../chat-files.js';
import { AGENT_OPTIONS, agentOptions } from '../agent-options.js';
import { TRUST_USAGE } from '../trust.js';
import { exitCodeForError, reportError } from '../errors.js';
import { notice, onOutClosed, UsageError, type Io } from '../io.js';
import { stderrLogger } from '../logger.js';
import { isFailure } from '../outcome.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, EXTENSION_OPTIONS, extensionsFrom, nonEmpty, parse, THREAD_OPTIONS } from '../options.js';
import { TurnPrinter } from '../printer.js';
import { didYouMean } from '../suggest.js';
import { startTurn, type RunningTurn } from '../turn-runner.js';

export const CHAT_USAGE = `Usage: a4h chat <agent-url> [--thread KEY] [--handle NAME] [--task ID] [--extension URI]…
                [-H 'Name: value']… [--bearer-env VAR] [--trust-jwks FILE|URL]… [--require-signed-card]

An interactive chat. Replies stream in as they arrive. Ctrl-C during a reply cancels that turn
(the agent is asked to stop); Ctrl-C at the prompt, /quit or end of input leaves. Lines can be
piped in. Without --thread the thread "${DEFAULT_THREAD}" is used, so starting again continues the
conversation; a reply still in progress on the thread, or a question the agent is waiting on, is shown
first. --task ID: your first line continues that task. /attach PATH sends a file with your next
message; the agent's files and data parts show as one line each ([file] name (mediaType, N bytes)),
and /save DIR writes the last reply's into DIR. /help lists the chat's commands (//text sends a line
that starts with a slash). -H and --bearer-env give the agent
credentials, --extension activates an extension on every turn, as for send. The identity secret
comes from A4H_IDENTITY_SECRET.
${TRUST_USAGE}`;

/** What `/help` shows: the chat's own commands. */
const CHAT_COMMANDS = `Commands:
  /attach PATH   send a file with your next message
  /save DIR      write the last reply's files (and data parts) into DIR, never overwriting
  /help          this list
  /quit, /exit   leave (so do Ctrl-C at the prompt and the end of input)
  //text         send a line that starts with a slash ("/text")
Ctrl-C during a reply cancels it (the agent is asked to stop).`;

/** The flags `a4h chat` takes (its usage lists each; a test keeps them so). */
export const CHAT_OPTIONS = { ...THREAD_OPTIONS, ...AGENT_OPTIONS, ...EXTENSION_OPTIONS, task: { type: 'string' } } as const;

/** The chat's own commands, for "did you mean". */
const SLASH_COMMANDS = ['/attach', '/save', '/help', '/quit', '/exit'];

/** `a4h chat`: one turn per line, until /quit, Ctrl-C at the prompt, or the end of input. */
export async function chat(args: string[], io: Io, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<number> {
  const { values, positionals } = parse(args, CHAT_OPTIONS);
  if (values.help) {
    io.out.write(`${CHAT_USAGE}\n`);
    return 0;
  }
  const [agent, ...rest] = positionals;
  if (agent === undefined || rest.length > 0) throw new UsageError('chat needs exactly one agent URL');
  const thread = nonEmpty('thread', values.thread, DEFAULT_THREAD);
  const handle = nonEmpty('handle', values.handle, DEFAULT_HANDLE);
  const extensions = extensionsFrom(values);
  const verbose = values.verbose === true;
  const reach = await agentOptions(values, agent, io.env);
  const client = createA2A({ logger: stderrLogger(io, verbose), ...reach });

  try {
    const card = await lastValueFrom(client.card(agent));
    const how = `A2A ${card.protocolVersion}, ${card.transport}${card.streaming ? ', streaming' : ''}`;
    notice(
      io,
      `chatting with ${io.style.bold(card.name)} (${how}) on thread "${thread}"${values.thread ? '' : ' (--thread KEY for another)'}`,
    );
    const missing = (card.extensions ?? []).filter((e) => e.required && !extensions.extensions?.includes(e.uri)).map((e) => e.uri);
    if (missing.length > 0) {
      notice(
        io,
        io.style.yellow(
          `the agent requires ${missing.join(', ')}: its turns are refused without ${missing.map((uri) => `--extension ${uri}`).join(' ')}`,
        ),
      );
    }
    if (input.isTTY) notice(io, io.style.dim('Ctrl-C cancels a reply; Ctrl-C at the prompt or /quit leaves'));
  } catch (error) {
    reportError(io, error, verbose);
    await client.close();
    return exitCodeForError(error);
  }

  const printer = new TurnPrinter(io);
  const tty = input.isTTY === true && io.live;
  const lines = createInterface({ input, ...(tty ? { output: io.out, prompt: io.style.bold('you › ') } : {}), terminal: tty });
  const queue: string[] = [];
  let running: RunningTurn | undefined;
  const files = new ChatFiles(io, verbose);
  /** A file being read (`/attach`) or written (`/save`); lines wait for it. */
  let busy: Promise<void> | undefined;
  let inputEnded = false;
  let failures = 0;
  let leaving = false;
  let settle: (code: number) => void = () => undefined;
  const left = new Promise<number>((resolve) => (settle = resolve));
  const leave = (code: number): void => {
    leaving = true;
    settle(code);
  };

  /** A turn's events, shown: the reply, the question's hint, a failed end. */
  const show = (event: TurnEvent): void => {
    printer.show(event);
    if (event.type === 'end') files.replied(event.attachments);
    if (event.type === 'end' && event.outcome === 'input-required') notice(io, io.style.dim('the agent asks; your next line answers it'));
    if (event.type === 'end' && isFailure(event.outcome)) notice(io, io.style.yellow(`the task ended ${event.outcome}`));
  };
  /** `--task`: the task the first message continues. */
  let firstTask = values.task === undefined ? undefined : nonEmpty('task', values.task, '');

  const next = (): void => {
    if (running || busy || leaving) return;
    const line = queue.shift();
    if (line === undefined) {
      if (inputEnded) leave(failures > 0 ? 1 : 0);
      else if (tty) lines.prompt();
      return;
    }
    let text = line.trim();
    if (text === '/quit' || text === '/exit') return leave(failures > 0 ? 1 : 0);
    if (text === '') return next();
    if (text === '/help') {
      io.err.write(`${CHAT_COMMANDS}\n`);
      return next();
    }
    const word = text.split(/\s/, 1)[0]!;
    if (word === '/attach' || word === '/save') {
      const argument = text.slice(word.length).trim();
      busy = (word === '/attach' ? files.attach(argument) : files.save(argument)).finally(() => {
        busy = undefined;
        next();
      });
      return;
    }
    if (text.startsWith('//')) {
      text = text.slice(1); // `//text` sends `/text`
    } else if (text.startsWith('/')) {
      const guess = didYouMean(word, SLASH_COMMANDS);
      notice(io, io.style.yellow(`unknown command ${word}${guess}: /help lists them; //${text.slice(1)} sends the line as it is`));
      return next();
    }
    const attached = files.take();
    const taskId = firstTask;
    firstTask = undefined;
    const message = {
      agent,
      handle,
      thread,
      text,
      ...(attached.length > 0 ? { files: attached } : {}),
      ...(taskId === undefined ? {} : { taskId }),
      ...extensions,
    };
    const turn = startTurn(client.turn(message), show);
    running = turn;
    void turn.result.then((result) => {
      running = undefined;
      if ('error' in result) {
        printer.abandon();
        reportError(io, result.error, verbose);
        failures++;
      } else if ('outcome' in result && isFailure(result.outcome)) {
        failures++;
      }
      next();
    });
  };

  const interrupt = (): void => {
    if (running) {
      running.cancel();
      printer.abandon();
      notice(io, 'turn cancelled; the agent was asked to stop');
      return;
    }
    leave(failures > 0 ? 1 : 0);
  };

  lines.on('line', (line) => {
    if (leaving) return;
    queue.push(line);
    next();
  });
  lines.on('close', () => {
    inputEnded = true;
    next();
  });
  lines.on('SIGINT', interrupt);
  process.on('SIGINT', interrupt);
  // Whoever read the chat left (`a4h chat … | head`): leave too; the running turn is cancelled below.
  const stopWatching = onOutClosed(io, () => leave(0));
  // A reply still in flight on this thread (a chat that was left, a process that died) comes first,
  // or the question the agent is waiting on; lines typed meanwhile wait for it.
  if (firstTask === undefined) {
    const resumed = startTurn(client.resume({ agent, handle, thread, ...extensions }), show);
    running = resumed;
    void resumed.result.then((result) => {
      running = undefined;
      // Nothing to resume on an agent without ListTasks (v0.3) is no failure of the chat.
      if ('error' in result && verbose) reportError(io, result.error, verbose);
      if ('outcome' in result && isFailure(result.outcome)) failures++;
      next();
    });
  }
  next();

  const code = await left;
  process.off('SIGINT', interrupt);
  stopWatching();
  running?.cancel();
  lines.close();
  if (tty) io.out.write('\n');
  await client.close();
  return code;
}

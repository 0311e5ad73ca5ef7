/**
 * The gateway client's command line: one message (or the thread's reply in progress) followed to its
 * end by `followTurn` (client-follow.mjs). The reply goes to stdout; the replica serving each stream,
 * reconnects, what came of A2UI (client-surfaces.mjs) and how to go on (an answer's flags, a position or a
 * message id to resume from) to stderr.
 *
 *     node examples/gateway/client.mjs GATEWAY_URL THREAD [MESSAGE…] [--token T]
 *       [--task ID [--generation N] [--elicitation ID]…] [--from ID] [--message-id ID [--sent-at MS]] [--budget SECONDS]  (the token: $A4H_GATEWAY_TOKEN)
 */
import { exampleArgs } from '../args.mjs';
import { startedAs } from '../started-as.mjs';
import { surfaceNotice } from './client-surfaces.mjs';
import { answerFields } from './client-bodies.mjs';
import { GatewayRefused, GatewayUnreachable } from './client-errors.mjs';
import { DEFAULT_BUDGET_MS, followTurn } from './client-follow.mjs';

/** A word for a shell: single-quoted unless it is plain. */
const shellWord = (/** @type {string} */ word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** What the command line takes. */
const USAGE =
  'Usage: node examples/gateway/client.mjs GATEWAY_URL THREAD [MESSAGE…] [options]\n' +
  '  --token TOKEN     a bearer token (default $A4H_GATEWAY_TOKEN; node examples/gateway/token.mjs <user> makes one)\n' +
  '  --task ID         the task of the question this message answers\n' +
  '  --generation N    with --task: the generation the question was asked at (refused, 409, once answered)\n' +
  '  --elicitation ID  with --task: a request for input this message answers (again for each)\n' +
  '  --from ID         follow a reply from a position (an id an earlier run printed)\n' +
  "  --message-id ID   the message's id: resend a message whose turn was not seen, without doubling it\n" +
  '  --sent-at MS      with --message-id: when it was first sent (ms since the epoch, as printed)\n' +
  `  --budget SECONDS  how long to keep trying without progress (default ${DEFAULT_BUDGET_MS / 1000})\n`;

/** The flags of an answer's fields: `--task`, `--generation`, an `--elicitation` per request. */
function answerFlags(/** @type {import('./client-bodies.d.mts').AnswerFields} */ fields) {
  return [
    '--task',
    fields.taskId,
    ...(fields.ifGenerationMatch === undefined ? [] : ['--generation', String(fields.ifGenerationMatch)]),
    ...(fields.elicitationIds ?? []).flatMap((id) => ['--elicitation', id]),
  ];
}

/** The command line: the reply on stdout; the replica serving each stream, reconnects and how to go on, on stderr. */
async function main() {
  const { values, positionals } = exampleArgs(USAGE.trimEnd(), {
    allowPositionals: true,
    options: {
      token: { type: 'string' },
      task: { type: 'string' },
      generation: { type: 'string' },
      elicitation: { type: 'string', multiple: true },
      from: { type: 'string' },
      'message-id': { type: 'string' },
      'sent-at': { type: 'string' },
      budget: { type: 'string' },
    },
  });
  const [gateway, thread, ...words] = positionals;
  const budget = Number(values.budget ?? DEFAULT_BUDGET_MS / 1000);
  const sentAt = values['sent-at'] !== undefined && /^\d{1,15}$/.test(values['sent-at']) ? Number(values['sent-at']) : undefined;
  const generation = values.generation !== undefined && /^[1-9]\d{0,14}$/.test(values.generation) ? Number(values.generation) : undefined;
  const elicitations = values.elicitation ?? [];
  const badAnswer = (values.generation !== undefined && generation === undefined) || ((generation || elicitations.length) && !values.task);
  if (!gateway || !thread || !(budget > 0) || (values['sent-at'] !== undefined && sentAt === undefined) || badAnswer) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const text = words.length > 0 ? words.join(' ') : undefined;
  const again = (/** @type {string[]} */ extra) =>
    ['node examples/gateway/client.mjs', gateway, thread, ...extra].map((w, i) => (i === 0 ? w : shellWord(w))).join(' ');
  let shown = 0;
  /** The surfaces told of: once each. */
  const told = new Set();
  try {
    const followed = await followTurn({
      gateway,
      thread,
      budgetMs: budget * 1000,
      ...(text !== undefined ? { text } : {}),
      ...(values.token || process.env.A4H_GATEWAY_TOKEN ? { token: values.token || process.env.A4H_GATEWAY_TOKEN } : {}),
      ...(values.task ? { taskId: values.task } : {}),
      ...(generation === undefined ? {} : { ifGenerationMatch: generation }),
      ...(elicitations.length > 0 ? { elicitationIds: elicitations } : {}),
      ...(values.from ? { from: values.from } : {}),
      ...(values['message-id'] ? { messageId: values['message-id'] } : {}),
      ...(sentAt !== undefined ? { sentAt } : {}),
      onStream: (replica) => process.stderr.write(`[via replica ${replica}]\n`),
      onEvent: (event) => {
        const notice = surfaceNotice(told, event);
        if (notice !== undefined) process.stderr.write(`${shown > 0 ? '\n' : ''}${notice}\n`);
        if (event.type !== 'text') return;
        process.stdout.write(event.replace ? `\n${event.text}` : String(event.text));
        shown += String(event.text).length;
      },
      onReconnect: (id) => process.stderr.write(`\n[stream lost; reconnecting${id ? ` from ${id}` : ''}]\n`),
    });
    if (followed.error) {
      process.stderr.write(`\nerror: ${followed.error.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(shown === 0 && followed.end ? `${followed.end.text}\n` : '\n');
    process.stderr.write(`[${followed.end?.outcome}; replicas: ${followed.replicas.join(' → ')}]\n`);
    const interrupt = followed.end?.interrupt;
    // An input-required or auth-required end: its question's task, generation and open requests, as flags.
    if (interrupt) process.stderr.write(`To answer: ${again([...answerFlags(answerFields(interrupt)), '<your answer>'])}\n`);
  } catch (error) {
    if (!(error instanceof GatewayUnreachable)) throw error;
    const answering = values.task
      ? answerFlags({
          taskId: values.task,
          ...(generation === undefined ? {} : { ifGenerationMatch: generation }),
          ...(elicitations.length > 0 ? { elicitationIds: elicitations } : {}),
        })
      : [];
    const sent = error.sentAt === undefined ? [] : ['--sent-at', String(error.sentAt)];
    const message = error.messageId ? [...answering, '--message-id', error.messageId, ...sent, text ?? ''] : [];
    const resume = error.lastEventId ? ['--from', error.lastEventId] : message;
    const later = error instanceof GatewayRefused ? (error.status === 401 ? ' With a fresh token' : '') : ' Later';
    process.stderr.write(`\nclient: ${error.message}.${resume.length && later ? `${later}, go on with: ${again(resume)}` : ''}\n`);
    process.exitCode = 1;
  }
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

/**
 * One message of the chat: the person's text (or action on a form), or the agent's reply (its text
 * parts but those a correction replaced: `replyTextOf`), its files, data parts and A2UI surfaces, a
 * note from its task and status, and its usage when the agent reported any (usage.tsx).
 * A question the agent asked is a marked block, and the answer box is focused when it comes.
 */
import { useEffect } from 'react';
import {
  replyTextOf,
  type A2AInterruptData,
  type A2AStatusData,
  type A2ATaskData,
  type A2AUIMessage,
  type A2AUIPart,
} from 'a4h-a2a/ai-sdk';
import { ActionSent, SurfacePart, SurfaceRefused } from './surfaces.js';
import { Usage } from './usage.js';

/** The data of a message's `data-a2a-task` or `data-a2a-status` part, if it has one. */
function dataOf(message: A2AUIMessage, type: 'data-a2a-task'): A2ATaskData | undefined;
function dataOf(message: A2AUIMessage, type: 'data-a2a-status'): A2AStatusData | undefined;
function dataOf(message: A2AUIMessage, type: 'data-a2a-task' | 'data-a2a-status'): A2ATaskData | A2AStatusData | undefined {
  return message.parts.find((part): part is Extract<A2AUIPart, { type: typeof type }> => part.type === type)?.data;
}

/**
 * A file (a picture inline, any other file as a link), a data part (a JSON block), an A2UI surface
 * (drawn, surfaces.tsx), a refused one, the person's action on one; nothing for the rest.
 */
function Attachment({ part }: { part: A2AUIPart }) {
  if (part.type === 'file') {
    const name = part.filename ?? String(part.providerMetadata?.a4h['filename'] ?? 'file');
    return part.mediaType.startsWith('image/') ? (
      <img src={part.url} alt={name} />
    ) : (
      <a href={part.url} download={name}>
        {name}
      </a>
    );
  }
  if (part.type === 'data-a2a-data') return <pre>{JSON.stringify(part.data.data, null, 2)}</pre>;
  if (part.type === 'data-a2a-surface') return <SurfacePart data={part.data} />;
  if (part.type === 'data-a2a-surface-refused') return <SurfaceRefused data={part.data} />;
  if (part.type === 'data-a2a-action') return <ActionSent data={part.data} />;
  return null;
}

/**
 * The question an ended turn waits on (`input-required`, `auth-required`): its interrupt (a history
 * message has none until the resume finds the question again: then the kind alone).
 */
function questionOf(phase: string, task: A2ATaskData | undefined): A2AInterruptData | undefined {
  if (phase !== 'ended' || (task?.outcome !== 'input-required' && task?.outcome !== 'auth-required')) return undefined;
  return task.interrupt ?? { kind: task.outcome === 'auth-required' ? 'auth' : 'input', text: '' };
}

/**
 * The question's mark. When it comes, the composer's answer box (`#input`, chat.tsx) takes the focus:
 * the person's next message answers it (the transport sends it with the question's generation).
 */
function Asks({ question }: { question: A2AInterruptData }) {
  useEffect(() => {
    document.querySelector<HTMLInputElement>('#input')?.focus();
  }, []);
  return <span className="asks">{question.kind === 'auth' ? 'The agent needs you to sign in' : 'The agent asks'}</span>;
}

/** What the agent's message says below its reply. */
function noteOf(phase: string, task: A2ATaskData | undefined, status: A2AStatusData | undefined): string {
  if (phase === 'stopped') return 'Stopped: the agent was told to cancel.';
  if (phase === 'running') return status?.text ?? '';
  if (task?.outcome === 'input-required') return 'Your next message answers it.';
  if (task?.outcome === 'auth-required') return 'Sign in as it says; your next message goes on.';
  if (task?.outcome !== undefined && task.outcome !== 'completed') return `Not completed: ${task.outcome}.`;
  return task?.error ?? '';
}

export function Message({ message, streaming, stopped }: { message: A2AUIMessage; streaming: boolean; stopped: boolean }) {
  const attachments = message.parts.map((part, i) => <Attachment key={i} part={part} />);
  if (message.role === 'user') {
    return (
      <li className="msg user">
        {replyTextOf(message)}
        {attachments}
      </li>
    );
  }
  const task = dataOf(message, 'data-a2a-task');
  const phase = streaming ? 'running' : stopped ? 'stopped' : task?.outcome !== undefined ? 'ended' : 'open';
  const question = questionOf(phase, task);
  return (
    <li
      className={question === undefined ? 'msg agent' : 'msg agent question'}
      data-phase={phase}
      data-outcome={task?.outcome ?? ''}
      data-task-id={task?.taskId}
      data-generation={question?.generation}
    >
      {question && <Asks question={question} />}
      <span className="body">{replyTextOf(message) || question?.text}</span>
      {attachments}
      <span className="note">{noteOf(phase, task, dataOf(message, 'data-a2a-status'))}</span>
      <Usage message={message} />
    </li>
  );
}

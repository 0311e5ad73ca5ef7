/**
 * One message of the chat: the person's text, or the agent's reply (its text parts but those a
 * correction replaced: `replyTextOf`), its files and data parts, and a note from its task and status.
 */
import { replyTextOf, type A2AStatusData, type A2ATaskData, type A2AUIMessage, type A2AUIPart } from 'a4h-a2a/ai-sdk';

/** The data of a message's `data-a2a-task` or `data-a2a-status` part, if it has one. */
function dataOf(message: A2AUIMessage, type: 'data-a2a-task'): A2ATaskData | undefined;
function dataOf(message: A2AUIMessage, type: 'data-a2a-status'): A2AStatusData | undefined;
function dataOf(message: A2AUIMessage, type: 'data-a2a-task' | 'data-a2a-status'): A2ATaskData | A2AStatusData | undefined {
  return message.parts.find((part): part is Extract<A2AUIPart, { type: typeof type }> => part.type === type)?.data;
}

/** A file (a picture inline, any other file as a link) or a data part (a JSON block); nothing for the rest. */
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
  return null;
}

/** What the agent's message says below its reply. */
function noteOf(phase: string, task: A2ATaskData | undefined, status: A2AStatusData | undefined): string {
  if (phase === 'stopped') return 'Stopped: the agent was told to cancel.';
  if (phase === 'running') return status?.text ?? '';
  if (task?.outcome === 'input-required') return 'The agent asks: your next message answers it.';
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
  return (
    <li className="msg agent" data-phase={phase} data-outcome={task?.outcome ?? ''} data-task-id={task?.taskId}>
      <span className="body">{replyTextOf(message)}</span>
      {attachments}
      <span className="note">{noteOf(phase, task, dataOf(message, 'data-a2a-status'))}</span>
    </li>
  );
}

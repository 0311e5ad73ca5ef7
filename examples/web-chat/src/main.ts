/**
 * The web chat page: asks its backend where the agent is and which contextId this conversation has,
 * then renders the chat state (signals, see chat.ts) into the DOM with a few effects. A reload keeps
 * the thread, and the chat picks up a reply that was in progress.
 */
// First, before the library: the SDK needs a global `Buffer` for raw-bytes file parts (see the file).
import './buffer-polyfill.js';
import { attachmentElement, fileToPart } from './attachments.js';
import { createChat, outcomeText } from './chat.js';
import type { Chat, Exchange } from './chat.js';
import { RESUMED_NOTE } from './resume.js';
import { effect } from './signals.js';

/** The conversation key: `?thread=…` if given, else one kept in localStorage (so a reload continues). */
function threadKey(): string {
  const fromUrl = new URL(location.href).searchParams.get('thread');
  if (fromUrl) return fromUrl;
  const stored = localStorage.getItem('a4h-web-chat-thread');
  if (stored) return stored;
  const fresh = `browser-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  localStorage.setItem('a4h-web-chat-thread', fresh);
  return fresh;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing from index.html`);
  return found as T;
}

const ui = {
  meta: element('meta'),
  messages: element('messages'),
  status: element('status'),
  statusText: element('status-text'),
  flags: element('flags'),
  composer: element<HTMLFormElement>('composer'),
  input: element<HTMLInputElement>('input'),
  file: element<HTMLInputElement>('file'),
  fileNames: element('file-names'),
  send: element<HTMLButtonElement>('send'),
  cancel: element<HTMLButtonElement>('cancel'),
};

/** The DOM of one exchange, created once and updated in place while the reply streams. */
interface Row {
  agent: HTMLElement;
  body: HTMLElement;
  attachments: HTMLElement;
  /** How many of the view's attachments are in the DOM. */
  shown: number;
  note: HTMLElement;
}

function userElement(exchange: Exchange): HTMLElement {
  const user = document.createElement('div');
  user.className = 'msg user';
  if (exchange.resumed) {
    user.classList.add('resumed');
    user.textContent = RESUMED_NOTE;
    return user;
  }
  user.textContent = exchange.text;
  for (const file of exchange.files) {
    const line = document.createElement('span');
    line.className = 'sent-file';
    line.textContent = `attached: ${file.name ?? 'file'}`;
    user.append(line);
  }
  return user;
}

function addRow(exchange: Exchange): Row {
  const user = userElement(exchange);
  const agent = document.createElement('div');
  agent.className = 'msg agent';
  if (exchange.resumed) agent.dataset['resumed'] = 'true';
  const body = document.createElement('span');
  body.className = 'body';
  const attachments = document.createElement('div');
  attachments.className = 'attachments';
  const note = document.createElement('span');
  note.className = 'note';
  agent.append(body, attachments, note);
  ui.messages.querySelector('.empty')?.remove();
  ui.messages.append(user, agent);
  return { agent, body, attachments, shown: 0, note };
}

function updateRow(row: Row, { view, stopped }: Exchange): void {
  const phase = stopped ? 'stopped' : view.phase;
  row.agent.dataset['phase'] = phase;
  row.agent.dataset['outcome'] = view.outcome ?? '';
  if (view.taskId !== undefined) row.agent.dataset['taskId'] = view.taskId;
  if (row.body.textContent !== view.reply) row.body.textContent = view.reply;
  // Attachments only grow during a turn (end repeats the same list): add the new ones.
  const attachments = view.attachments ?? [];
  for (; row.shown < attachments.length; row.shown++) row.attachments.append(attachmentElement(attachments[row.shown]!));
  let note = '';
  if (phase === 'stopped') note = 'Cancelled by you.';
  else if (phase === 'error') note = view.error?.message ?? 'The turn failed.';
  else if (phase === 'ended' && view.outcome !== 'completed') note = `Not completed: ${outcomeText(view)}.`;
  if (row.note.textContent !== note) row.note.textContent = note;
}

function render(chat: Chat): void {
  const rows = new Map<number, Row>();
  effect(() => {
    const list = ui.messages;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    for (const exchange of chat.exchanges()) {
      let row = rows.get(exchange.id);
      if (row === undefined) rows.set(exchange.id, (row = addRow(exchange)));
      updateRow(row, exchange);
    }
    if (atBottom) list.scrollTop = list.scrollHeight;
  });
  effect(() => {
    const { tone, text, flags } = chat.status();
    ui.status.dataset['tone'] = tone;
    ui.statusText.textContent = text;
    ui.flags.replaceChildren(
      ...flags.map((flag) => Object.assign(document.createElement('span'), { className: 'badge', textContent: flag })),
    );
  });
  effect(() => {
    ui.send.disabled = !chat.canSend();
    ui.cancel.disabled = !chat.busy();
  });
  effect(() => {
    document.body.dataset['resume'] = chat.resume().state;
  });

  ui.file.addEventListener('change', () => {
    ui.fileNames.textContent = [...(ui.file.files ?? [])].map((file) => `attached: ${file.name}`).join(' ');
  });
  ui.composer.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = ui.input.value;
    const picked = [...(ui.file.files ?? [])];
    if (!chat.canSend.peek() || (text.trim() === '' && picked.length === 0)) return;
    ui.input.value = '';
    ui.file.value = '';
    ui.fileNames.textContent = '';
    void Promise.all(picked.map(fileToPart)).then((files) => chat.send(text, files));
  });
  ui.cancel.addEventListener('click', () => {
    chat.cancel();
    ui.input.focus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') chat.cancel();
  });
}

async function main(): Promise<void> {
  try {
    const thread = threadKey();
    const { agent } = await getJson<{ agent: string }>('/api/config');
    const { contextId } = await getJson<{ contextId: string }>(`/api/context?thread=${encodeURIComponent(thread)}`);
    ui.meta.textContent = `${new URL(agent).host} · thread ${thread} · context ${contextId.slice(0, 8)}…`;
    ui.meta.title = `agent ${agent}\nthread ${thread}\ncontextId ${contextId}`;
    render(createChat({ agent, thread, contextId }));
    ui.input.disabled = false;
    ui.input.focus();
    document.body.dataset['ready'] = 'true';
  } catch (error) {
    ui.status.dataset['tone'] = 'error';
    ui.statusText.textContent = `Could not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

void main();

/**
 * The web chat page: asks its backend where the agent is and which contextId this conversation has,
 * then renders the chat state (signals, see chat.ts) into the DOM with a few effects. A reload keeps
 * the thread: the page shows its past (read from the agent, "Load earlier" for more), then picks up
 * a reply that was in progress below it. An agent's A2UI surfaces are drawn in its bubble (surfaces.ts);
 * a button on one sends its action as the next turn, and the agent's answer updates it in place.
 */
// First, before the library: the SDK needs a global `Buffer` for raw-bytes file parts (see the file).
import './buffer-polyfill.js';
import { attachmentElement, fileToPart } from './attachments.js';
import { createChat, outcomeText } from './chat.js';
import type { Chat, Exchange, HistoryState } from './chat.js';
import { surfaceAction } from 'a4h-a2a';
import type { HistoryExchange, UserMessage } from 'a4h-a2a';
import { RESUMED_NOTE } from './resume.js';
import { effect } from './signals.js';
import { SurfaceBoard } from './surfaces.js';
import type { PageAction } from './surfaces.js';

/** The exchanges of each page of the past: `?page=N` (1–100), else 20. */
function historyLimit(): number {
  const page = Number(new URL(location.href).searchParams.get('page'));
  return Number.isInteger(page) && page >= 1 && page <= 100 ? page : 20;
}

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
  history: element('history'),
  loadEarlier: element<HTMLButtonElement>('load-earlier'),
  historyNote: element('history-note'),
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

/** The DOM of one exchange, created once (and, for this page's turns, updated in place while the reply streams). */
interface Row {
  user: HTMLElement;
  agent: HTMLElement;
  body: HTMLElement;
  /** The A2UI surfaces this exchange's turn created. */
  surfaces: HTMLElement;
  attachments: HTMLElement;
  /** How many of the view's attachments are in the DOM. */
  shown: number;
  note: HTMLElement;
  /** The surface messages the library refused, and those the renderer could not draw: one line each. */
  surfaceNotes: HTMLElement;
}

/** A line under the person's text for each file they sent. */
function sentFile(name: string): HTMLElement {
  const line = document.createElement('span');
  line.className = 'sent-file';
  line.textContent = `attached: ${name}`;
  return line;
}

/** The person's messages of an exchange the page did not send (of the past, or resumed): their texts, one a line, and files. */
function fillUser(user: HTMLElement, messages: readonly UserMessage[], missing: string): void {
  user.replaceChildren();
  user.classList.toggle('resumed', messages.length === 0);
  if (messages.length === 0) user.textContent = missing;
  messages.forEach((message, i) => {
    user.append(`${i > 0 ? '\n' : ''}${message.text}`);
    for (const attachment of message.attachments ?? [])
      user.append(sentFile(attachment.kind === 'file' ? (attachment.name ?? 'file') : 'data'));
  });
}

function userElement(exchange: Exchange): HTMLElement {
  const user = document.createElement('div');
  user.className = 'msg user';
  if (exchange.resumed) {
    // The message the resumed task answers comes with the view (`request`), a moment after the task.
    fillUser(user, [], RESUMED_NOTE);
    return user;
  }
  user.textContent = exchange.action ?? exchange.text;
  if (exchange.action !== undefined) user.classList.add('action');
  for (const file of exchange.files) user.append(sentFile(file.name ?? 'file'));
  return user;
}

/** A row's elements, not yet in the page. */
function newRow(user: HTMLElement): Row {
  const agent = document.createElement('div');
  agent.className = 'msg agent';
  const body = document.createElement('span');
  body.className = 'body';
  const surfaces = document.createElement('div');
  surfaces.className = 'surfaces';
  const attachments = document.createElement('div');
  attachments.className = 'attachments';
  const note = document.createElement('span');
  note.className = 'note';
  const surfaceNotes = document.createElement('div');
  surfaceNotes.className = 'surface-notes';
  agent.append(body, surfaces, attachments, surfaceNotes, note);
  return { user, agent, body, surfaces, attachments, shown: 0, note, surfaceNotes };
}

function liveRow(exchange: Exchange): Row {
  const row = newRow(userElement(exchange));
  if (exchange.resumed) row.agent.dataset['resumed'] = 'true';
  return row;
}

/** An exchange of the past, as the agent keeps it: drawn once, as a turn that ended so would be. */
function pastRow(exchange: HistoryExchange): Row {
  const user = document.createElement('div');
  user.className = 'msg user';
  fillUser(user, exchange.user, '(the agent kept no message)');
  const row = newRow(user);
  Object.assign(row.agent.dataset, {
    past: 'true',
    phase: exchange.outcome === undefined ? 'open' : 'ended',
    outcome: exchange.outcome ?? '',
    taskId: exchange.taskId,
  });
  row.body.textContent = exchange.reply;
  for (const attachment of exchange.attachments ?? []) row.attachments.append(attachmentElement(attachment));
  if (exchange.error !== undefined) row.note.textContent = exchange.error.message;
  else if (exchange.outcome === undefined) row.note.textContent = `Unfinished (${exchange.state}).`;
  else if (exchange.outcome !== 'completed') row.note.textContent = `Not completed: ${outcomeText(exchange)}.`;
  return row;
}

/** What the person's bubble says of an action: its name and the context it sends. */
function actionLabel(action: PageAction): string {
  const context = JSON.stringify(action.context);
  return `Pressed “${action.name}”${context === '{}' ? '' : ` ${context.length > 200 ? `${context.slice(0, 199)}…` : context}`}`;
}

/** One line per refused surface message (`surface-refused`, class `refused`) and per one the renderer could not draw. */
function fillSurfaceNotes(row: Row, refused: readonly string[], problems: readonly string[]): void {
  const lines = [...refused.map((text) => ({ text, kind: 'refused' })), ...problems.map((text) => ({ text, kind: 'undrawn' }))];
  if (row.surfaceNotes.childElementCount === lines.length) return;
  row.surfaceNotes.replaceChildren(
    ...lines.map(({ text, kind }) =>
      Object.assign(document.createElement('div'), { className: `surface-note ${kind}`, textContent: text }),
    ),
  );
}

function updateRow(row: Row, { view, stopped, resumed, refused }: Exchange, key: string, board: SurfaceBoard): void {
  if (resumed && view.request !== undefined && row.user.classList.contains('resumed')) fillUser(row.user, [view.request], RESUMED_NOTE);
  const phase = stopped ? 'stopped' : view.phase;
  row.agent.dataset['phase'] = phase;
  row.agent.dataset['outcome'] = view.outcome ?? '';
  if (view.taskId !== undefined) row.agent.dataset['taskId'] = view.taskId;
  if (row.body.textContent !== view.reply) row.body.textContent = view.reply;
  // Attachments only grow during a turn (end repeats the same list): add the new ones.
  const attachments = view.attachments ?? [];
  for (; row.shown < attachments.length; row.shown++) row.attachments.append(attachmentElement(attachments[row.shown]!));
  fillSurfaceNotes(row, refused, board.show(key, view.surfaces, row.surfaces));
  let note = '';
  if (phase === 'stopped') note = 'Cancelled by you.';
  else if (phase === 'error') note = view.error?.message ?? 'The turn failed.';
  else if (phase === 'ended' && view.outcome !== 'completed') note = `Not completed: ${outcomeText(view)}.`;
  if (row.note.textContent !== note) row.note.textContent = note;
}

/** The small line above the messages: "Load earlier" while there is an earlier page, or why the past does not show. */
function renderHistory(history: HistoryState): void {
  ui.loadEarlier.hidden = !(history.state === 'shown' && history.earlier);
  let note = '';
  if (history.state === 'unsupported') note = 'This agent keeps no history (A2A v0.3): earlier messages do not show.';
  else if (history.state === 'failed') note = `Earlier messages could not be loaded (${history.message}).`;
  if (ui.historyNote.textContent !== note) ui.historyNote.textContent = note;
  ui.history.hidden = ui.loadEarlier.hidden && note === '';
  document.body.dataset['history'] = history.state;
}

function render(chat: Chat): void {
  const rows = new Map<string, Row>();
  // A surface's action goes as the thread's next turn; while a turn runs the click is not sent.
  const board = new SurfaceBoard((action) => {
    if (!chat.act(surfaceAction(action), actionLabel(action)))
      ui.statusText.textContent = 'Wait for the running turn to end, then press again.';
  });
  let first: string | undefined;
  const list = ui.messages;
  // Whether the list follows its end: until the reader scrolls up, and again once they scroll back down.
  let atBottom = true;
  list.addEventListener('scroll', () => {
    atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  });
  // A picture that finished loading grew the list (load events do not bubble: caught on the way down).
  list.addEventListener(
    'load',
    () => {
      if (atBottom) list.scrollTop = list.scrollHeight;
    },
    true,
  );
  effect(() => {
    const fromBottom = list.scrollHeight - list.scrollTop;
    // The past above this page's exchanges; keyed, so each row is drawn once and moved, never doubled.
    const items = [
      ...chat.past().map((exchange) => ({ key: `past:${exchange.taskId}`, past: exchange })),
      ...chat.exchanges().map((exchange) => ({ key: `page:${exchange.id}`, exchange })),
    ];
    const keys = new Set(items.map((item) => item.key));
    for (const [key, row] of rows) {
      if (keys.has(key)) continue;
      row.user.remove();
      row.agent.remove();
      rows.delete(key);
    }
    if (items.length > 0) list.querySelector('.empty')?.remove();
    let at = ui.history.nextSibling;
    for (const item of items) {
      let row = rows.get(item.key);
      if (row === undefined) rows.set(item.key, (row = 'past' in item ? pastRow(item.past) : liveRow(item.exchange)));
      if ('exchange' in item) updateRow(row, item.exchange, item.key, board);
      for (const node of [row.user, row.agent]) {
        if (node === at) at = node.nextSibling;
        else list.insertBefore(node, at);
      }
    }
    // At the bottom, stay there; when earlier exchanges came in above, keep what was on screen in place.
    const prepended = first !== undefined && keys.has(first) && items[0]?.key !== first;
    first = items[0]?.key;
    if (atBottom) list.scrollTop = list.scrollHeight;
    else if (prepended) list.scrollTop = list.scrollHeight - fromBottom;
  });
  effect(() => renderHistory(chat.history()));
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
  ui.loadEarlier.addEventListener('click', () => chat.loadEarlier());
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
    render(createChat({ agent, thread, contextId, historyLimit: historyLimit() }));
    ui.input.disabled = false;
    ui.input.focus();
    document.body.dataset['ready'] = 'true';
  } catch (error) {
    ui.status.dataset['tone'] = 'error';
    ui.statusText.textContent = `Could not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

void main();

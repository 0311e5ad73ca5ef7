/**
 * The web chat page: asks its backend where the agent is and which contextId this conversation has,
 * then renders the chat state (signals, see chat.ts) into the DOM with a few effects. A reload keeps
 * the thread: the page shows its past (read from the agent, "Load earlier" for more), then picks up
 * a reply that was in progress below it. An agent's A2UI surfaces are drawn in its bubble (surfaces.ts),
 * a past exchange's too (from history, as they stand); a button on one sends its action as the next
 * turn, and the agent's answer updates it in place.
 */
// First, before the library: the SDK needs a global `Buffer` for raw-bytes file parts (see the file).
import './buffer-polyfill.js';
import { fileToPart } from './attachments.js';
import { createChat } from './chat.js';
import type { Chat } from './chat.js';
import type { HistoryState } from './exchange.js';
import { surfaceAction } from 'a4h-a2a';
import { actionLabel, liveRow, pastRow, updatePastRow, updateRow } from './rows.js';
import type { Row } from './rows.js';
import { effect } from './signals.js';
import { SurfaceBoard } from './surfaces.js';

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
    // A row that left (a task of the past this page's exchange shows now) takes its surfaces along: drawn anew there.
    for (const [key, row] of rows) {
      if (keys.has(key)) continue;
      row.user.remove();
      row.agent.remove();
      rows.delete(key);
      board.forget(key);
    }
    if (items.length > 0) list.querySelector('.empty')?.remove();
    let at = ui.history.nextSibling;
    for (const item of items) {
      let row = rows.get(item.key);
      if (row === undefined) rows.set(item.key, (row = 'past' in item ? pastRow(item.past) : liveRow(item.exchange)));
      for (const node of [row.user, row.agent]) {
        if (node === at) at = node.nextSibling;
        else list.insertBefore(node, at);
      }
      // In the page first: a surface's element makes its shadow root, where its styles go, once connected.
      if ('exchange' in item) updateRow(row, item.exchange, item.key, board);
      else updatePastRow(row, item.past, item.key, board);
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

/**
 * The DOM of one exchange (a row: the person's bubble and the agent's), made once and, for this page's
 * turns, updated in place while the reply streams: the reply, its attachments, the surfaces its turn
 * drew, or a past exchange's from history (through the page's SurfaceBoard), and the notes about them.
 */
import { attachmentElement } from './attachments.js';
import { outcomeText } from './status.js';
import type { Exchange } from './exchange.js';
import type { HistoryExchange, UserMessage } from 'a4h-a2a';
import { RESUMED_NOTE } from './resume.js';
import type { PageAction, SurfaceBoard } from './surfaces.js';

/** The DOM of one exchange, created once (and, for this page's turns, updated in place while the reply streams). */
export interface Row {
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

export function liveRow(exchange: Exchange): Row {
  const row = newRow(userElement(exchange));
  if (exchange.resumed) row.agent.dataset['resumed'] = 'true';
  return row;
}

/** An exchange of the past, as the agent keeps it: drawn once, as a turn that ended so would be. */
export function pastRow(exchange: HistoryExchange): Row {
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
export function actionLabel(action: PageAction): string {
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

/**
 * Draws a past exchange's surfaces (`HistoryExchange.surfaces`, as they stand) in its row through the
 * page's board, with a note for each the renderer could not draw; its buttons act as a live turn's do.
 * Call it on every render once the row is in the page: a surface that an exchange on an earlier page
 * created is drawn when that page comes.
 */
export function updatePastRow(row: Row, exchange: HistoryExchange, key: string, board: SurfaceBoard): void {
  const surfaces = Object.fromEntries((exchange.surfaces ?? []).map((surface) => [surface.surfaceId, surface]));
  fillSurfaceNotes(row, [], board.show(key, surfaces, row.surfaces, { past: true }));
}

export function updateRow(row: Row, { view, stopped, resumed, refused }: Exchange, key: string, board: SurfaceBoard): void {
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

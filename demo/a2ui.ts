/**
 * The demo agent draws: `form …` answers with an A2UI v1.0 surface (a question, a choice of drinks
 * bound to `/choice`, a Submit button whose action is `submit`), and the action that comes back is
 * answered on that surface (`/answer` set, a Text bound to it added). Each reply is one artifact
 * chunk, `answer`: a text part for clients that do not draw, then the surface in the spec's shape (one
 * DataPart, `metadata.mimeType: application/a2ui+json`, `data` the array of messages; on the v0.3 wire
 * one message per part). Over gRPC (the kit's own executors) it says in text that it cannot draw there.
 */
import { randomUUID } from 'node:crypto';
import { SurfaceBook, actionOf, choiceOf, notMineText, type ReceivedAction } from '../fixtures/a2ui-actions.js';
import { partsOut, type OutPart, type PartsOut } from '../fixtures/a2ui-out.js';
import { answerMessages, choseText, formMessages } from '../fixtures/a2ui-protocol.js';
import { partsOf } from '../fixtures/a2ui-shapes.js';
import type { Turn } from '../fixtures/turn.js';

/** The text before the form. */
export const FORM_TEXT = 'Here is a small form: pick a drink and press Submit.';
/** What a `form` turn says where it cannot draw (gRPC). */
export const NO_FORM_TEXT = 'I draw forms over JSON-RPC and HTTP+JSON only; on this connection there is nothing to draw on.';

/** The surfaces the demo agent drew, so that it answers only actions on its own. */
export type DemoSurfaces = SurfaceBook;
export const demoSurfaces = (): DemoSurfaces => new SurfaceBook();

/** An action a turn carries, with the turn's parts. */
export interface FormAction {
  out: PartsOut;
  action: ReceivedAction;
}

/** The action a turn carries, when it carries one and the turn can draw. */
export function formActionOf(t: Turn): FormAction | undefined {
  const out = partsOut(t);
  const action = out && actionOf(out.dataParts);
  return out && action ? { out, action } : undefined;
}

/** Working → the reply as the `answer` artifact (text, then the surface's parts) → completed. */
async function reply(t: Turn, out: PartsOut, text: string, surface: OutPart[], delayMs: number): Promise<void> {
  t.status('working');
  await t.sleep(delayMs);
  out.artifact('answer', [{ text }, ...surface], { append: false, lastChunk: true });
  t.status('completed');
}

/** A `form` turn, after its task was published: the form drawn on a new surface `form-<8 hex>`. */
export async function drawForm(t: Turn, surfaces: DemoSurfaces, delayMs: number): Promise<void> {
  const out = partsOut(t);
  if (out === undefined) {
    t.status('working');
    await t.sleep(delayMs);
    t.artifact('answer', NO_FORM_TEXT, { append: false, lastChunk: true }, { name: 'answer' });
    t.status('completed');
    return;
  }
  const surfaceId = `form-${randomUUID().slice(0, 8)}`;
  surfaces.add(surfaceId, 'spec');
  await reply(t, out, FORM_TEXT, partsOf(formMessages('v1.0', surfaceId), 'spec', out.wire), delayMs);
}

/**
 * An action, after its task was published: on a surface this agent drew, “You chose X” in text and
 * on the surface; on any other, failed with a message that says so. Returns what the user chose
 * (undefined when refused).
 */
export async function answerForm(
  t: Turn,
  { out, action }: FormAction,
  surfaces: DemoSurfaces,
  delayMs: number,
): Promise<string | undefined> {
  if (surfaces.shapeOf(action.surfaceId) === undefined) {
    t.status('failed', notMineText(action.surfaceId));
    return undefined;
  }
  const choice = choiceOf(action, out.metadata);
  const surface = partsOf(answerMessages('v1.0', action.surfaceId, choice), 'spec', out.wire);
  await reply(t, out, `${choseText(choice)}.`, surface, delayMs);
  return choice;
}

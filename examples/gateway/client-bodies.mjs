/**
 * The bodies of the gateway client's messages beyond a text, as fields to spread into `followTurn`'s
 * options (client-follow.mjs):
 *
 * - **An answer to a question.** An `input-required` or `auth-required` end carries its `interrupt`
 *   (the question's task, its generation, the agent's requests for input): {@link answerFields} makes
 *   the fields of the answer's message from it, so the answer goes only while the question is open. A
 *   second answer to a question answered already (another tab, another device) is refused, 409
 *   (client-errors.mjs's `GatewayRefused`), never a new task (against an agent of A2A 1.1, which keeps generations).
 * - **An A2UI action.** {@link actionFields} makes the fields of a message that carries a person's action
 *   on a surface instead of a text (`action`, and `surface`: the surface's creation message, which the
 *   stateless replica needs to build the action in the surface's version). It goes as a text message
 *   goes: once, by its id, its turn (the agent's answer, as `surface` frames on that surface) followed.
 */

/** The requests for input still open (the ones an answer answers, as the library's `answerTo` chooses them). */
const OPEN = new Set(['blocked', 'waiting']);

/**
 * The fields of a message that answers an interrupted end's question (its `interrupt`), for
 * `followTurn`: the question's task, the generation it was asked at (when the agent keeps them)
 * and the agent's requests for input still open. Spread them beside the answer's text.
 * @param {import('./client-bodies.d.mts').GatewayInterrupt} interrupt
 * @returns {import('./client-bodies.d.mts').AnswerFields}
 */
export function answerFields(interrupt) {
  const open = (interrupt.elicitations ?? []).filter((request) => OPEN.has(request.state)).map((request) => request.id);
  return {
    taskId: interrupt.taskId,
    ...(interrupt.generation === undefined ? {} : { ifGenerationMatch: interrupt.generation }),
    ...(open.length > 0 ? { elicitationIds: open } : {}),
  };
}

/**
 * The fields of a message that carries a person's A2UI action on `surface` (a surface of an earlier turn's
 * `end.surfaces`, or the `surface` frames' messages so far), for `followTurn`: spread them instead of a
 * text. The timestamp is fixed now, so a message sent again is the same message.
 * @param {import('./client-surfaces.d.mts').GatewaySurfaceView} surface
 * @param {import('./client-bodies.d.mts').ActionInput} input
 * @returns {import('./client-bodies.d.mts').ActionFields}
 */
export function actionFields(surface, input) {
  const creation = surface.messages.find((message) => message.kind === 'createSurface' || message.kind === 'beginRendering');
  if (creation === undefined) throw new TypeError('the surface was never created in the messages given: an action needs its creation');
  const { name, sourceComponentId, context, dataModel, timestamp } = input;
  return {
    action: {
      surfaceId: surface.surfaceId,
      name,
      sourceComponentId,
      ...(context === undefined ? {} : { context }),
      ...(dataModel === undefined ? {} : { dataModel }),
      timestamp: timestamp ?? new Date().toISOString(),
    },
    surface: creation,
  };
}

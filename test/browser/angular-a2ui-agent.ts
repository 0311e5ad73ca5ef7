/**
 * The A2UI agent of the Angular page's browser test: the A2UI fixture behaviours (fixtures/a2ui-behaviours.ts:
 * `form`, `v08-form`, `evil-url`, … and the kit's for any other word) on one v1.0 host whose card offers
 * A2UI, behind the demo agent's CORS, plus one behaviour of its own: `v08-drink`, the fixture's v0.8 form
 * with its components named apart from every string of the form; and `v08-evil`, a v0.8 surface whose Text
 * carries markdown with script in its HTML and links (a2ui's URL check reads a string's start only: the
 * renderer's own defences meet it) and whose Image, added by a message of its own, a `javascript:` URL. Its card takes `application/a2ui+json`
 * (the fixture's cards do not: the client would refuse the action before it goes).
 *
 * Why: `@a2ui/angular` 0.8.3's message processor (`@a2ui/web_core` 0.8.0) reads any string of a
 * component's properties that equals a component id as that component: the fixture's v0.8 form names
 * its Button `submit`, as its action is named (a circular tree: the processor throws), and its picker
 * `choice`, as its action's context key is named. `v08-drink` is that form with the Button `submit-button`
 * and the picker `drink-picker`; its action is answered with the fixture's v0.8 answer, renamed the same way.
 */
import { randomUUID } from 'node:crypto';
import type { AgentCard as CardV1 } from '@a2a-js/sdk';
import { cors } from '../../demo/cors.js';
import { actionOf, choiceOf, SurfaceBook } from '../../fixtures/a2ui-actions.js';
import { a2uiScript } from '../../fixtures/a2ui-behaviours.js';
import { a2uiExtension, mountPartsV1 } from '../../fixtures/a2ui-mount.js';
import { partsOut, type PartsOut } from '../../fixtures/a2ui-out.js';
import { answerMessages, formMessages, type A2UIMessage } from '../../fixtures/a2ui-protocol.js';
import { a2uiRecord, type A2UIReceived } from '../../fixtures/a2ui-record.js';
import { partsOf } from '../../fixtures/a2ui-shapes.js';
import { fixtureSkill } from '../../fixtures/behaviours.js';
import { v1Card, v1Interfaces } from '../../fixtures/cards.js';
import { startHost } from '../../fixtures/http-host.js';
import type { AgentScript, Turn } from '../../fixtures/turn.js';
import type { FixtureAgent } from '../../fixtures/types.js';

/** The behaviours of its own. */
export const V08_DRINK = 'v08-drink';
export const V08_EVIL = 'v08-evil';
/** `v08-evil`'s Text: markdown whose HTML and link would run script if drawn as they came (no string starts with a URL). */
export const EVIL_MARKDOWN =
  'Hello **there** <img src=x onerror="alert(1)"> [run](javascript:alert(2)) <script>alert(3)</script> <a href="javascript:alert(4)">here</a>';
/** `v08-evil`'s Image URL, in a message of its own that adds it under the root (refused before any renderer). */
export const EVIL_IMAGE = 'javascript:alert(5)';
/** The component ids the fixture's v0.8 form uses that collide with its strings, and what `v08-drink` names them. */
export const RENAMED: Readonly<Record<string, string>> = { submit: 'submit-button', choice: 'drink-picker' };

/** The running agent. */
export interface AngularA2UIAgent {
  agent: FixtureAgent;
  /** Its URL (the one mount, `/`). */
  url: string;
  /** The messages it received, in order. */
  record(): A2UIReceived[];
  /** The surfaces `v08-drink` drew. */
  drinks(): string[];
  close(): Promise<void>;
}

const rename = (id: unknown): unknown => (typeof id === 'string' ? (RENAMED[id] ?? id) : id);

/** v0.8 messages with the colliding component ids renamed (in `id` and in children's explicit lists). */
export function renamed(messages: readonly A2UIMessage[]): A2UIMessage[] {
  return messages.map((message) => {
    const update = message['surfaceUpdate'] as { surfaceId: string; components: Record<string, unknown>[] } | undefined;
    if (update === undefined) return message;
    const components = update.components.map((component) => {
      const body = JSON.parse(JSON.stringify(component)) as {
        id: string;
        component: Record<string, { children?: { explicitList?: string[] } }>;
      };
      for (const props of Object.values(body.component)) {
        if (props.children?.explicitList) props.children.explicitList = props.children.explicitList.map((id) => rename(id) as string);
      }
      return { ...body, id: rename(body.id) };
    });
    return { surfaceUpdate: { ...update, components } };
  });
}

/** Working → `messages` as the one artifact chunk `surface` (the fixture's shape for v0.8: one message a part) → completed. */
async function draw(t: Turn, out: PartsOut, messages: A2UIMessage[]): Promise<void> {
  t.status('working');
  await t.sleep(t.timing.stepMs);
  out.artifact('surface', partsOf(messages, 'v08', out.wire), { append: false, lastChunk: true });
  await t.sleep(t.timing.stepMs);
  t.status('completed');
}

/** `v08-evil`'s messages on `surfaceId`. */
export function evilMessages(surfaceId: string): A2UIMessage[] {
  const literal = (text: string) => ({ literalString: text });
  return [
    { beginRendering: { surfaceId, root: 'root' } },
    {
      surfaceUpdate: {
        surfaceId,
        components: [
          { id: 'root', component: { Column: { children: { explicitList: ['words'] } } } },
          { id: 'words', component: { Text: { text: literal(EVIL_MARKDOWN) } } },
        ],
      },
    },
    {
      surfaceUpdate: {
        surfaceId,
        components: [
          { id: 'root', component: { Column: { children: { explicitList: ['words', 'picture'] } } } },
          { id: 'picture', component: { Image: { url: literal(EVIL_IMAGE) } } },
        ],
      },
    },
  ];
}

/** `v08-drink`, `v08-evil` and the actions on `v08-drink`'s surfaces; everything else to the fixture's A2UI script. */
function script(drinks: Set<string>): AgentScript {
  const fixture = a2uiScript(new SurfaceBook());
  return {
    behaviour: async (t) => {
      const out = partsOut(t);
      const action = out && actionOf(out.dataParts);
      if (out && action && drinks.has(action.surfaceId)) {
        t.task('submitted');
        return draw(t, out, renamed(answerMessages('v0.8', action.surfaceId, choiceOf(action, out.metadata))));
      }
      if (out && !action && !t.followUp && t.text.trim().toLowerCase() === V08_DRINK) {
        const surfaceId = `${V08_DRINK}-${randomUUID().slice(0, 8)}`;
        drinks.add(surfaceId);
        t.task('submitted');
        return draw(t, out, renamed(formMessages('v0.8', surfaceId)));
      }
      if (out && !action && !t.followUp && t.text.trim().toLowerCase() === V08_EVIL) {
        t.task('submitted');
        return draw(t, out, evilMessages(`${V08_EVIL}-${randomUUID().slice(0, 8)}`));
      }
      return fixture.behaviour(t);
    },
    cancelMessage: fixture.cancelMessage,
  };
}

/**
 * Starts the agent on 127.0.0.1 (a free port), its card offering A2UI v1.0 and taking `application/a2ui+json`
 * (an action's media type) besides text, JSON-RPC then HTTP+JSON.
 */
export async function startAngularA2UIAgent(): Promise<AngularA2UIAgent> {
  const host = await startHost({ before: [cors] });
  const drinks = new Set<string>();
  const bindings = ['JSONRPC', 'HTTP+JSON'] as const;
  const info = {
    name: 'a2ui-angular',
    description: 'A2UI fixture agent for the Angular page.',
    version: '1.0.0',
    streaming: true,
    skills: [fixtureSkill()],
    // The action a click sends is a data part of this media type, and the client refuses, before it goes, a part
    // the card does not take: the fixture's and the demo agent's cards take text/plain (and the demo's JSON) only.
    inputModes: ['text/plain', 'application/a2ui+json'],
  };
  const base = v1Card(info, v1Interfaces(host, '/', bindings));
  const card: CardV1 = { ...base, capabilities: { ...base.capabilities!, extensions: [a2uiExtension()] } };
  mountPartsV1(host, { mount: '/', card, script: script(drinks), bindings });
  return {
    agent: host.agent,
    url: host.agent.url('/'),
    record: () => a2uiRecord(host.agent.received, '/'),
    drinks: () => [...drinks],
    close: () => host.agent.close(),
  };
}

import { A2AError } from '../errors.js';
import type { CardSummary } from './card.js';
import type { OutgoingMessage } from './message-out.js';

/**
 * What the app renders of A2UI (a2ui.org): the catalogs its renderer draws, by id. With it, a turn
 * to an agent whose card offers the A2UI extension activates it and tells the agent the catalogs on
 * every message (`metadata.a2uiClientCapabilities`); an agent whose card does not offer it sees none.
 */
export interface A2UIOption {
  /** The catalog ids the app's renderer draws (the basic catalog's, say); at least one. */
  catalogs: readonly string[];
  /** Catalog definitions sent inline, only to an agent whose card says it accepts them (`acceptsInlineCatalogs`). */
  inlineCatalogs?: readonly Record<string, unknown>[];
}

/** The A2UI extension's URIs, newest first, each with the version its client capabilities are keyed by (none: v0.8's flat object). */
export const A2UI_EXTENSIONS: readonly { uri: string; version?: string }[] = [
  { uri: 'https://a2ui.org/a2a-extension/a2ui/v1.0', version: 'v1.0' },
  { uri: 'https://a2ui.org/a2a-extension/a2ui/v0.10', version: 'v0.10' },
  { uri: 'https://a2ui.org/a2a-extension/a2ui/v0.9.1', version: 'v0.9.1' },
  { uri: 'https://a2ui.org/a2a-extension/a2ui/v0.9', version: 'v0.9' },
  { uri: 'https://a2ui.org/a2a-extension/a2ui/v0.8' },
];

/** What a turn to one agent sends for A2UI: the extension URI it activates and the message metadata. */
export interface A2UIOffer {
  uri: string;
  metadata: { a2uiClientCapabilities: Record<string, unknown> };
}

/**
 * The A2UI extension the turn takes up with this agent: the newest version its card offers that the
 * client knows, with the capabilities keyed as that version's schema says; undefined when the card
 * offers none (nothing of A2UI goes to that agent).
 */
export function a2uiOffer(card: CardSummary, option: A2UIOption): A2UIOffer | undefined {
  const offered = card.extensions ?? [];
  for (const known of A2UI_EXTENSIONS) {
    const extension = offered.find((candidate) => candidate.uri === known.uri);
    if (extension === undefined) continue;
    const capabilities: Record<string, unknown> = { supportedCatalogIds: [...option.catalogs] };
    if (option.inlineCatalogs !== undefined && extension.params?.['acceptsInlineCatalogs'] === true) {
      capabilities['inlineCatalogs'] = option.inlineCatalogs.map((catalog) => ({ ...catalog }));
    }
    return {
      uri: known.uri,
      metadata: { a2uiClientCapabilities: known.version === undefined ? capabilities : { [known.version]: capabilities } },
    };
  }
  return undefined;
}

/** The `a2ui` option checked (a bad one is a `config` error when the client is made). */
export function checkA2UIOption(option: unknown): A2UIOption | undefined {
  if (option === undefined) return undefined;
  const given = typeof option === 'object' && option !== null ? (option as { catalogs?: unknown; inlineCatalogs?: unknown }) : {};
  const catalogs = given.catalogs;
  const inline = given.inlineCatalogs;
  const ok =
    Array.isArray(catalogs) &&
    catalogs.length > 0 &&
    catalogs.every((id) => typeof id === 'string' && id !== '' && id.length <= 2048) &&
    (inline === undefined || (Array.isArray(inline) && inline.every((c) => typeof c === 'object' && c !== null && !Array.isArray(c))));
  if (!ok) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: 'a2ui must be { catalogs: [catalog ids, at least one], inlineCatalogs?: [catalog objects] }',
    });
  }
  return option as A2UIOption;
}

/** `extensions` with the A2UI extension the turn takes up with the agent (`offer`), once. */
export function withA2UIExtension(extensions: readonly string[], offer: A2UIOffer | undefined): readonly string[] {
  return offer === undefined || extensions.includes(offer.uri) ? extensions : [...extensions, offer.uri];
}

/** `message` with A2UI's client capabilities in its metadata, when the turn takes A2UI up with the agent (`offer`). */
export function withA2UIMetadata(message: OutgoingMessage, offer: A2UIOffer | undefined): OutgoingMessage {
  return offer === undefined ? message : { ...message, metadata: { ...message.metadata, ...offer.metadata } };
}

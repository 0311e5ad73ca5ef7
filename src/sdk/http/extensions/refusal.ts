/**
 * What an agent's ExtensionSupportRequired (-32008; HTTP+JSON: a 400 whose ErrorInfo reason is
 * EXTENSION_SUPPORT_REQUIRED) says: the extension URIs it names, in its message or its error's data
 * (the ErrorInfo's metadata), and a message that names them. A2A does not say where the URI goes;
 * the SDKs put it in the message ("Client must declare support for required extensions: <uri>").
 */
export interface ExtensionRefusal {
  /** The URIs the agent named, when it named any. */
  extensions?: string[];
  message: string;
}

/** An absolute URI with an authority (`https://…`) or a URN, up to a character that cannot be in one or ends a sentence. */
const URI = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s,;"'<>()[\]{}]+|urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:[^\s,;"'<>()[\]{}]+/g;
/** The most URIs kept, strings read from the data, characters read of each. */
const MAX_URIS = 16;
const MAX_STRINGS = 64;
const MAX_CHARS = 4_096;

/** The refusal of one call: `said`, the agent's message; `data`, its error's data or ErrorInfo metadata. */
export function extensionRefusal(said: string, data: unknown): ExtensionRefusal {
  const uris = new Set<string>();
  for (const text of [said, ...stringsIn(data)]) {
    for (const match of text.slice(0, MAX_CHARS).matchAll(URI)) {
      if (uris.size < MAX_URIS) uris.add(match[0].replace(/[.:]+$/, ''));
    }
  }
  if (uris.size === 0) return { message: `the agent requires an extension the call did not activate (${said})` };
  const extensions = [...uris];
  const them = extensions.length === 1 ? `the extension ${extensions[0]}` : `the extensions ${extensions.join(', ')}`;
  return { extensions, message: `the agent requires ${them}, which the call did not activate (${said})` };
}

/** The strings in a JSON value (an ErrorInfo array, its metadata), a few levels deep and bounded. */
function stringsIn(value: unknown, depth = 0, found: string[] = []): string[] {
  if (found.length >= MAX_STRINGS || depth > 4) return found;
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) for (const item of value.slice(0, MAX_STRINGS)) stringsIn(item, depth + 1, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value).slice(0, MAX_STRINGS)) {
      // ErrorInfo's `@type` and `domain` are no extension.
      if (key !== '@type' && key !== 'domain') stringsIn(item, depth + 1, found);
    }
  }
  return found;
}

/**
 * What `--debug` hides in a body: the value of every member that carries a credential, wherever it is
 * (a JSON body, an SSE event's `data:` line, a form, a gRPC message): OAuth's `access_token`,
 * `refresh_token`, `id_token`, `client_secret`, `device_code` and `client_assertion`; a push-notification
 * config's `token` and `authentication.credentials` (v1.0 and v0.3 shapes alike: the member names are
 * the same); and `password`, `api_key`, `apiKey`. Names match whatever their case and underscores
 * (`accessToken` is `access_token`).
 */
const CREDENTIAL_MEMBERS: ReadonlySet<string> = new Set([
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'clientsecret',
  'devicecode',
  'clientassertion',
  'token',
  'credentials',
  'password',
  'apikey',
]);

/** What a hidden value shows as. */
export const REDACTED = '[redacted]';

/** Whether a member or form field of this name carries a credential. */
export function isCredentialMember(name: string): boolean {
  return CREDENTIAL_MEMBERS.has(name.toLowerCase().replace(/[_-]/g, ''));
}

/** A JSON value with every credential member's value replaced by {@link REDACTED}, at any depth. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) out[name] = isCredentialMember(name) ? REDACTED : redactJson(member);
  return out;
}

/** A form field (`name=value`), in text that is not whole JSON. */
const FORM_FIELD = /(^|[&?\s])([^&=\s"]+)=([^&\s]*)/g;
/** A JSON member's name and colon (`"name": `), in text that is not whole JSON. */
const MEMBER_NAME = /"((?:[^"\\]|\\.)*)"\s*:\s*/g;

/** Where the JSON value starting at `from` ends (exclusive): a string to its closing quote, an object or array to its matching bracket, else to the next delimiter; the text's end when it breaks off. */
function valueEnd(text: string, from: number): number {
  const first = text[from];
  if (first !== '"' && first !== '{' && first !== '[') {
    const end = text.slice(from).search(/[,}\]\s]/);
    return end < 0 ? text.length : from + end;
  }
  let depth = 0;
  let inString = false;
  for (let at = from; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') {
        inString = false;
        if (depth === 0) return at + 1;
      }
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return at + 1;
    }
  }
  return text.length;
}

/** Each `"name": value` member of a credential's name, its value replaced where it stands. */
function redactMembers(text: string): string {
  let out = '';
  let copied = 0;
  for (const match of text.matchAll(MEMBER_NAME)) {
    const valueAt = match.index + match[0].length;
    if (valueAt < copied || !isCredentialMember(match[1]!)) continue;
    out += `${text.slice(copied, valueAt)}"${REDACTED}"`;
    copied = valueEnd(text, valueAt);
  }
  return out + text.slice(copied);
}

/**
 * One line of a body as `--debug` shows it, credentials hidden: a JSON document (or an SSE line's JSON
 * after its `data:`) parsed and each credential member replaced; any other text (a form, a line of a
 * pretty-printed or broken document) with each `name=value` field and each `"name": value` member of a
 * credential's name replaced where it stands.
 */
export function redactLine(line: string): string {
  const json = /^(\s*(?:data:\s*)?)([[{].*)$/s.exec(line);
  if (json) {
    try {
      return `${json[1]}${JSON.stringify(redactJson(JSON.parse(json[2]!)))}`;
    } catch {
      // not whole JSON: the members are found where they stand, below
    }
  }
  return redactMembers(line).replace(FORM_FIELD, (whole, before: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // a malformed escape: the name as it is
    }
    return isCredentialMember(decoded) ? `${before}${name}=${REDACTED}` : whole;
  });
}

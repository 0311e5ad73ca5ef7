import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { A2AError, CARD_PATH } from '../../node/index.js';

/** An agent as the command line names it: a URL to reach (a host, an origin, a card URL) or a card read from a file. */
export type AgentRef = { kind: 'url'; url: string } | { kind: 'file'; path: string };

/** Looks like a path on this machine: `./card.json`, an absolute path, `card.json`, `..\card.json`. */
const PATHLIKE = /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])|\.json$/;

/**
 * What a reference names (the A2A CLI specification's `--agent-card`): `file://…` or a path is a card
 * file; `http(s)://…` is used as it is (a card URL ending in `.json`, else the agent's base URL); a
 * bare host or origin (`localhost:41241`, `agent.example.com`) gets `http://` on loopback and
 * `https://` elsewhere, its card then at the well-known path.
 */
export function agentRef(ref: string): AgentRef {
  if (ref.startsWith('file:')) return { kind: 'file', path: fileURLToPath(ref) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return { kind: 'url', url: ref };
  if (PATHLIKE.test(ref) && !/^[A-Za-z0-9.-]+:\d+(\/|$)/.test(ref)) return { kind: 'file', path: isAbsolute(ref) ? ref : resolve(ref) };
  const host = /^([^/:?#]+|\[[^\]]+\])/.exec(ref)?.[1]?.toLowerCase() ?? '';
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  return { kind: 'url', url: `${loopback ? 'http' : 'https'}://${ref}` };
}

/** A card read from a file: its JSON, and the card URL it stands for (at its first interface's origin). */
export interface LocalCard {
  json: unknown;
  /** `<origin of the card's first interface>/.well-known/agent-card.json`: where its agent's calls go from. */
  cardUrl: string;
  /** The file, as a `file://` URL. */
  fileUrl: string;
}

/**
 * Reads a card file: its JSON and the card URL it stands for, the well-known URL of its first
 * interface's origin (v1.0 `supportedInterfaces[0].url`, v0.3 `url`), so the card's calls go where it
 * says, with the credentials for that origin. A file that cannot be read is a `card` error whose
 * message says so (A2ACLI_ERR_CARD_NOT_FOUND); one that is no JSON or names no interface, a `card`
 * error (A2ACLI_ERR_CARD_INVALID).
 */
export async function readLocalCard(path: string): Promise<LocalCard> {
  const fileUrl = pathToFileURL(path).href;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new A2AError({ kind: 'card', operation: 'card', status: 404, message: `no agent card at ${fileUrl} (${code})`, cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new A2AError({ kind: 'card', operation: 'card', message: `the agent card at ${fileUrl} is not JSON`, cause });
  }
  const card = (json ?? {}) as { supportedInterfaces?: { url?: unknown }[]; url?: unknown };
  const first = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces[0]?.url : card.url;
  let origin: string;
  try {
    origin = new URL(String(first)).origin;
    if (!origin.startsWith('http')) origin = new URL(`http://${String(first)}`).origin; // a gRPC interface's host:port
  } catch {
    throw new A2AError({ kind: 'card', operation: 'card', message: `the agent card at ${fileUrl} names no interface URL` });
  }
  return { json, cardUrl: `${origin}/${CARD_PATH}`, fileUrl };
}

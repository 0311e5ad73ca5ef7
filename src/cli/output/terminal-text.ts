/**
 * The one sanitizer of what the command prints from an agent (its card's name, description and
 * skills, its replies, ids, artifact and file names, the texts of its errors, the history it keeps):
 * text for a person to read, never an instruction to the terminal. An agent is not vouched for; a
 * terminal obeys what it reads, so an escape sequence in a reply could write the clipboard (OSC 52),
 * set the window title or clear the screen. The command's own colours are added after this, around
 * text that went through it.
 */

/**
 * Terminal control sequences, whole: CSI (`ESC [` or the 8-bit U+009B, parameters, intermediates, a
 * final byte: what arrived of it), the string sequences (OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM
 * `ESC ^`, APC `ESC _`, or their 8-bit forms) up to their BEL or ST (`ESC \` or U+009C), and the
 * other escapes (ESC, intermediates, a final byte). A string sequence without its terminator loses
 * its introducer only: the rest shows as text. The bodies stop at ESC or a C1 character, so every
 * scan is linear.
 */
const SEQUENCES =
  /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b[ -/]*[0-~]?/g;

/** What is left of the controls: C0 but tab and newline (a lone CR, which overwrites a line, among them), DEL, C1. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Agent text of several lines as the terminal may show it: its control sequences removed, a CR
 * (alone or before LF) a line break, every other control character but tab dropped.
 */
export function terminalText(text: string): string {
  return text.replace(SEQUENCES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/**
 * Agent text on one line (a name, an id, a field's value): its control sequences removed, line
 * breaks and tabs a space, every other control character dropped.
 */
export function terminalLine(text: string): string {
  return text
    .replace(SEQUENCES, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(CONTROLS, '');
}

/**
 * The Unicode bidi controls: the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069,
 * the marks U+200E, U+200F, U+061C. In a file name they show it reversed (`invoice\u202efdp.exe`
 * reads `invoiceexe.pdf`); a name shown or written keeps none of them (a reply keeps them: they are
 * how right-to-left text is written).
 */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** A name of the agent's (a file's) on one line: {@link terminalLine}, and no bidi control. */
export function terminalName(name: string): string {
  return terminalLine(name).replace(BIDI_CONTROLS, '');
}

/**
 * JSON the command prints, as `JSON.stringify` wrote it, with DEL and the C1 controls (which it
 * leaves raw) escaped as `\u00XX`: the same value to a JSON reader, nothing a terminal acts on
 * (C0 controls it escapes already). Outside strings JSON holds none of them.
 */
export function terminalJson(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

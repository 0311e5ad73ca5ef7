/** Chunks per block of a long text: each block is flattened once, when it is full. */
const BLOCK = 1024;

/**
 * A text grown by appending chunks, kept as a short rope of flat blocks. A long reply kept as a rope
 * of 100,000 small strings (what `text + chunk` a chunk at a time makes) makes every garbage
 * collection copy and walk it; here only the last block (at most `BLOCK` pieces) is a rope, each full
 * block is flattened once (every character copied once more in all), and the text is the blocks'
 * rope plus that last one. One per growing text (an artifact's, a view's reply).
 */
export class TextRope {
  /** The full blocks, each flattened once, joined (itself a short rope of flat strings). */
  private flatBlocks = '';
  /** The last block: a rope of the chunks appended since it started. */
  private lastBlock = '';
  /** How many chunks `lastBlock` holds. */
  private pieces = 0;
  /** The text {@link append} last gave: while the text grown is still it, the next chunk goes on `lastBlock`. */
  private grown: string | undefined;

  /** `text + chunk`; `text` is what this rope gave last, or any other text to start again from. */
  append(text: string, chunk: string): string {
    if (text !== this.grown) {
      // Set another way since the last chunk (a replace, a snapshot), or the first append: start from it.
      this.flatBlocks = text;
      this.lastBlock = '';
      this.pieces = 0;
    }
    this.lastBlock += chunk;
    if (++this.pieces >= BLOCK) {
      this.flatBlocks += flatten(this.lastBlock);
      this.lastBlock = '';
      this.pieces = 0;
    }
    return (this.grown = this.flatBlocks + this.lastBlock);
  }
}

/** The same string, in one piece (V8 flattens a rope it turns into a number). */
function flatten(text: string): string {
  Number(text);
  return text;
}

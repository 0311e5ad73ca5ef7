/**
 * A JSON file the demo agent keeps up to date: writes are atomic (a temp file, then rename), never
 * overlap, and a burst of changes becomes one or two writes. A failed write is dropped (a full disk
 * must not take the agent down); the next change writes again.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/** The file's JSON, or undefined when it is missing or not JSON. */
export async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes `data()` to `file` after each {@link JsonFile.changed}. */
export class JsonFile {
  #saving: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(
    readonly file: string,
    private readonly data: () => unknown,
  ) {}

  /** Schedules a write of what `data()` returns then. */
  changed(): void {
    if (this.#dirty) return; // a write is already queued and will see this change
    this.#dirty = true;
    this.#saving = this.#saving.then(async () => {
      this.#dirty = false;
      await this.#write().catch(() => undefined);
    });
  }

  /** Resolves once every change so far is on disk. */
  async flush(): Promise<void> {
    while (this.#dirty) await this.#saving;
    await this.#saving;
  }

  async #write(): Promise<void> {
    const temp = `${this.file}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(this.data(), null, 2)}\n`, 'utf8');
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

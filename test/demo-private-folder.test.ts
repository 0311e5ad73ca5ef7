/** The demo agent's default folder is under the shared temp directory: it must be the user's own, and private (issue 45). */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { privateFolder } from '../demo/private-folder.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'a4h-private-folder-'));
  return () => rmSync(root, { recursive: true, force: true });
});

describe("the demo agent's default folder", () => {
  it('is made 0700 when missing, and set to 0700 when the user made it open', async () => {
    const made = join(root, 'made');
    await privateFolder(made);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    await privateFolder(open);
    expect(statSync(open).mode & 0o777).toBe(0o700);
  });

  it.skipIf(process.getuid?.() !== 0)('made first by another user (0777): refused, saying what to do', async () => {
    const theirs = join(root, 'theirs');
    mkdirSync(theirs);
    chmodSync(theirs, 0o777);
    chownSync(theirs, 65534, 65534);
    await expect(privateFolder(theirs)).rejects.toThrow(/belongs to another user \(uid 65534\).*remove it, or give --memory FILE/);
  });

  it('a link in its place: refused', async () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(root, 'link'));
    await expect(privateFolder(join(root, 'link'))).rejects.toThrow(/is not a folder \(a link or a file\)/);
  });
});

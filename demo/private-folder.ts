import { chmod, lstat, mkdir } from 'node:fs/promises';

/**
 * Makes sure `dir`, the demo agent's default folder under the temp directory, is the user's own and
 * private before conversations go in it: created with mode 0700 when missing; one the user owns is
 * set to 0700; one another user made (the temp directory is shared: anyone may create the name
 * first, with mode 0777), a link or a file is refused with an error saying what to do.
 */
export async function privateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stats = await lstat(dir);
  const uid = process.getuid?.();
  const refuse = (why: string) =>
    new Error(`${dir} ${why}: the demo agent keeps conversations only in a folder of your own; remove it, or give --memory FILE`);
  if (!stats.isDirectory()) throw refuse('is not a folder (a link or a file)');
  if (uid !== undefined && stats.uid !== uid) throw refuse(`belongs to another user (uid ${stats.uid})`);
  if ((stats.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

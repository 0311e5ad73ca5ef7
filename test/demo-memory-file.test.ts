/** The demo agent's default memory file is per user and per checkout (issue 16: clones shared one). */
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_FILE } from '../demo/agent.js';
import { CHECKOUT, currentUser, defaultMemoryFile } from '../demo/memory-file.js';
import { Memory } from '../demo/memory.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('the demo agent default memory file', () => {
  it('is this checkout’s and this user’s, under the temp directory', () => {
    expect(CHECKOUT).toBe(join(ROOT, '.'));
    expect(DEFAULT_MEMORY_FILE).toBe(defaultMemoryFile(ROOT, currentUser()));
    expect(DEFAULT_MEMORY_FILE.startsWith(join(tmpdir(), `a4h-demo-agent-${currentUser()}`))).toBe(true);
    expect(DEFAULT_MEMORY_FILE).not.toBe(join(tmpdir(), 'a4h-demo-agent', 'memory.json'));
  });

  it('another clone, another file; another user, another folder; the same of both, the same file', () => {
    // Checkouts made up under the temp directory: only their paths matter, nothing is written.
    const clone = (...parts: string[]): string => join(tmpdir(), 'clones', ...parts);
    expect(defaultMemoryFile(clone('a4h-a2a'), 'ada')).not.toBe(defaultMemoryFile(clone('work', 'a4h-a2a'), 'ada'));
    expect(dirname(defaultMemoryFile(clone('a4h-a2a'), 'ada'))).not.toBe(dirname(defaultMemoryFile(clone('a4h-a2a'), 'bob')));
    expect(defaultMemoryFile(`${clone('a4h-a2a')}${sep}`, 'ada')).toBe(defaultMemoryFile(clone('a4h-a2a'), 'ada'));
  });

  it('a user name is safe in a path', () => {
    expect(currentUser()).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it.skipIf(process.platform === 'win32')('its folder is created for the user alone (0700)', async () => {
    const file = join(tmpdir(), `a4h-demo-mode-${process.pid}`, 'memory.json');
    await Memory.open(file);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    await rm(dirname(file), { recursive: true, force: true });
  });
});

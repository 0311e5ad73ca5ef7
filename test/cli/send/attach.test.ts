import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../../demo/agent.js';
import { ATTACHMENT } from '../../../demo/reply.js';
import { blocksOf, jsonLines, runCli } from '../run-cli.js';

/** `--attach`, `--save`, the attachment lines and `--json` bytes, and chat's `/attach` and `/save`, against the demo agent. */
let agent: DemoAgent;
let dir = '';
let pdf = '';
const PDF = '%PDF-1.4 a tiny document\n';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-cli-attach-'));
  agent = await startDemoAgent({ memoryFile: join(dir, 'memory.json'), chunkDelayMs: 1 });
  pdf = join(dir, 'notes.pdf');
  await writeFile(pdf, PDF);
});
afterAll(async () => {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a4h send with files', () => {
  it('--attach sends the file; echo brings it back; its artifact block names it after the reply', async () => {
    const { code, stdout } = await runCli(['send', agent.url, '--thread', 'attach-1', '--attach', pdf, 'echo']);
    expect(code).toBe(0);
    const lines = blocksOf(stdout).split('\n');
    expect(lines[0]).toContain('Echoing notes.pdf back to you');
    expect(lines.slice(1)).toEqual([`[file] notes.pdf (application/pdf, ${PDF.length} bytes)`]);
  });

  it('--json: the file part with its bytes in base64', async () => {
    const { stdout } = await runCli(['send', agent.url, '--json', '--thread', 'attach-json', '--attach', pdf, 'echo']);
    const lines = jsonLines(stdout);
    const expected = {
      kind: 'file',
      name: 'notes.pdf',
      mediaType: 'application/pdf',
      size: PDF.length,
      bytes: Buffer.from(PDF).toString('base64'),
    };
    expect(lines.filter((l) => l['type'] === 'attachment')).toEqual([{ type: 'attachment', attachment: expected }]);
    expect(lines.at(-1)).toMatchObject({ type: 'end', attachments: [expected] });
  });

  it('--save DIR writes the chart, never over an earlier one; without --save nothing is written', async () => {
    const out = join(dir, 'saved');
    const first = await runCli(['send', agent.url, '--thread', 'attach-save', 'attach']);
    expect(first.stdout).toContain(`[file] a4h-chart.png (image/png, ${ATTACHMENT.bytes.length} bytes)`);
    await expect(readdir(out)).rejects.toMatchObject({ code: 'ENOENT' });
    for (let i = 0; i < 2; i++) {
      const { code, stderr } = await runCli(['send', agent.url, '--thread', 'attach-save', '--save', out, 'attach']);
      expect(code).toBe(0);
      expect(stderr).toContain(`saved ${join(out, i === 0 ? 'a4h-chart.png' : 'a4h-chart-1.png')}`);
    }
    expect((await readdir(out)).sort()).toEqual(['a4h-chart-1.png', 'a4h-chart.png']);
    expect(new Uint8Array(await readFile(join(out, 'a4h-chart.png')))).toEqual(ATTACHMENT.bytes);
  });

  it('a file that cannot be read is a usage error (2); a media type the agent does not take is an input error (2) before sending', async () => {
    const missing = await runCli(['send', agent.url, '--attach', join(dir, 'nope.png'), 'echo']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot attach');
    const exe = join(dir, 'tool.exe');
    await writeFile(exe, 'MZ');
    const refused = await runCli(['send', agent.url, '--attach', exe, 'echo']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('does not accept application/octet-stream');
  });
});

describe('a4h chat with files', () => {
  it('/attach PATH goes with the next message; attachment lines show', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agent.url, '--thread', 'chat-attach'], { input: `/attach ${pdf}\necho this\n` });
    expect(code).toBe(0);
    expect(stderr).toContain(`attached [file] notes.pdf (application/pdf, ${PDF.length} bytes)`);
    expect(stdout).toContain(`[file] notes.pdf (application/pdf, ${PDF.length} bytes)`);
  });

  it("/save DIR writes the last reply's files, never over an earlier one; before any, or after a reply without, it says so", async () => {
    const out = join(dir, 'chat-saved');
    const { code, stdout, stderr } = await runCli(['chat', agent.url, '--thread', 'chat-save'], {
      input: `/save ${out}\nattach a chart\n/save ${out}\n/save ${out}\nhello\n/save ${out}\n/save\n/svae ${out}\n`,
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`[file] a4h-chart.png (image/png, ${ATTACHMENT.bytes.length} bytes)`);
    expect(stderr.match(/nothing to save: the last reply carried no file or data/g)).toHaveLength(2);
    expect(stderr).toContain(`saved ${join(out, 'a4h-chart.png')}`);
    expect(stderr).toContain(`saved ${join(out, 'a4h-chart-1.png')}`);
    expect(stderr).toContain('/save needs a directory');
    expect(stderr).toContain('unknown command /svae: did you mean /save?');
    expect((await readdir(out)).sort()).toEqual(['a4h-chart-1.png', 'a4h-chart.png']);
    expect(new Uint8Array(await readFile(join(out, 'a4h-chart.png')))).toEqual(ATTACHMENT.bytes);
  });
});

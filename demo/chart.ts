/**
 * The demo agent's picture: a small bar chart drawn as a real PNG (RGB, zlib-compressed scanlines),
 * one bar per value. No dependency: the PNG container is a signature and three CRC-checked chunks.
 */
import { deflateSync } from 'node:zlib';

const WIDTH = 160;
const HEIGHT = 100;
const MARGIN = 10;
const BACKGROUND = [255, 255, 255] as const;
const AXIS = [60, 60, 60] as const;
const BARS = [
  [66, 133, 244],
  [219, 68, 55],
  [244, 180, 0],
  [15, 157, 88],
] as const;

/** A `WIDTH`×`HEIGHT` PNG with one bar per value (at most 12), scaled to the largest. */
export function barChartPng(values: readonly number[]): Uint8Array {
  const bars = values.slice(0, 12).map((v) => Math.max(0, v));
  const top = Math.max(1, ...bars);
  const pixels = new Uint8Array(WIDTH * HEIGHT * 3);
  const paint = (x: number, y: number, rgb: readonly number[]) => pixels.set(rgb, (y * WIDTH + x) * 3);
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) paint(x, y, BACKGROUND);
  const floor = HEIGHT - MARGIN;
  for (let x = MARGIN; x < WIDTH - MARGIN; x++) paint(x, floor, AXIS);
  for (let y = MARGIN; y <= floor; y++) paint(MARGIN, y, AXIS);
  const slot = Math.floor((WIDTH - 2 * MARGIN - 4) / Math.max(1, bars.length));
  bars.forEach((value, i) => {
    const height = Math.round(((floor - MARGIN - 2) * value) / top);
    const left = MARGIN + 4 + i * slot;
    for (let x = left; x < left + Math.max(1, slot - 4); x++)
      for (let y = floor - height; y < floor; y++) paint(x, y, BARS[i % BARS.length]!);
  });
  return encodePng(WIDTH, HEIGHT, pixels);
}

/** An 8-bit RGB PNG of `pixels` (row-major, 3 bytes a pixel). */
export function encodePng(width: number, height: number, pixels: Uint8Array): Uint8Array {
  const raw = new Uint8Array(height * (width * 3 + 1));
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1); // filter 0
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

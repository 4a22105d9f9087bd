/**
 * RGBA pixels -> an 8-bit palette PNG, for the zip's webvoyager/screenshotN.png files.
 *
 * Why not the canvas's own PNG: the labelled screenshots are kept as JPEGs, and a truecolor PNG of
 * a decoded JPEG carries all of JPEG's noise: ~3-4x the JPEG's size (about 300 KB for a busy
 * 1280x800 page), which would put a 100-step zip far over its 25 MB budget. A 256-colour palette
 * (web pages are mostly flat colours and anti-aliased text) gives PNGs about the JPEG's size.
 *
 * Palette: the 256 most common colours at 5 bits a channel, each the mean of the pixels it
 * stands for; every 5-bit colour maps to its nearest palette entry. Alpha is dropped (screenshots
 * are opaque). `deflate` is zlib compression (fflate's zlibSync) passed in by the caller, because
 * src/core imports no packages.
 */

export type Deflate = (data: Uint8Array) => Uint8Array;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** The CRC-32 of PNG chunks (and zip entries). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
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

const key = (r: number, g: number, b: number) => ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);

/** Palette (up to 256 RGB triples) and the 32768-entry map from 5-bit colour to palette index. */
function buildPalette(rgba: ArrayLike<number>): { palette: Uint8Array; lut: Uint8Array } {
  const count = new Uint32Array(32768);
  const sum = new Float64Array(32768 * 3);
  for (let i = 0; i < rgba.length; i += 4) {
    const k = key(rgba[i], rgba[i + 1], rgba[i + 2]);
    count[k]++;
    sum[k * 3] += rgba[i];
    sum[k * 3 + 1] += rgba[i + 1];
    sum[k * 3 + 2] += rgba[i + 2];
  }
  const used: number[] = [];
  for (let k = 0; k < 32768; k++) if (count[k]) used.push(k);
  used.sort((a, b) => count[b] - count[a]);
  const chosen = used.slice(0, 256);
  const palette = new Uint8Array(Math.max(1, chosen.length) * 3);
  chosen.forEach((k, j) => {
    for (let c = 0; c < 3; c++) palette[j * 3 + c] = Math.round(sum[k * 3 + c] / count[k]);
  });
  const lut = new Uint8Array(32768);
  chosen.forEach((k, j) => { lut[k] = j; });
  for (const k of used.slice(256)) {
    const r = sum[k * 3] / count[k], g = sum[k * 3 + 1] / count[k], b = sum[k * 3 + 2] / count[k];
    let best = 0, bestD = Infinity;
    for (let j = 0; j < chosen.length; j++) {
      const dr = palette[j * 3] - r, dg = palette[j * 3 + 1] - g, db = palette[j * 3 + 2] - b;
      const d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
      if (d < bestD) { bestD = d; best = j; }
    }
    lut[k] = best;
  }
  return { palette, lut };
}

/** Encodes width x height RGBA pixels (row-major, 4 bytes a pixel) as an 8-bit palette PNG. */
export function encodePalettePng(rgba: ArrayLike<number>, width: number, height: number, deflate: Deflate): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error(`Expected ${width * height * 4} RGBA bytes, got ${rgba.length}.`);
  const { palette, lut } = buildPalette(rgba);
  const raw = new Uint8Array((width + 1) * height); // each row: filter byte 0 (none), then indices
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      raw[row + 1 + x] = lut[key(rgba[i], rgba[i + 1], rgba[i + 2])];
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // colour type: palette
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('PLTE', palette), chunk('IDAT', deflate(raw)), chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

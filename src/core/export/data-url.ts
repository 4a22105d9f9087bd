/**
 * Data URL <-> bytes, and base64, without atob/btoa or Buffer: the export builders run in the
 * side panel, in the runner's Node process and in unit tests alike (src/core stays pure).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** An image data URL we are willing to embed or unpack: base64, a raster image type, nothing else. */
const IMAGE_DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,/;

export function base64Encode(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 3 * 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    let s = '';
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      s += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
    }
    if (i < end) {
      const n = (bytes[i] << 16) | ((i + 1 < end ? bytes[i + 1] : 0) << 8);
      s += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + (i + 1 < end ? ALPHABET[(n >> 6) & 63] : '=') + '=';
    }
    parts.push(s);
  }
  return parts.join('');
}

/**
 * Decodes base64 (padding optional); throws on any other character. One pass, no regex: a
 * `/=+$/` over the input backtracks quadratically on a long run of "=" that does not end it
 * (a 40 kB one took most of a second), and the input can be a page's or a file's.
 */
export function base64Decode(text: string): Uint8Array {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? DECODE[c] : -1;
    if (v < 0) throw new Error(`Not base64: character ${JSON.stringify(text[i])} at ${i}.`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

/** The MIME type of an image data URL we accept, or null ('' , a file name, anything else). */
export function imageMimeOf(url: string): string | null {
  return IMAGE_DATA_URL.exec(url.slice(0, 40))?.[1] ?? null;
}

/** The bytes of an image data URL, or null when it is not one. */
export function dataUrlToBytes(url: string): { mime: string; bytes: Uint8Array } | null {
  const mime = imageMimeOf(url);
  if (!mime) return null;
  return { mime, bytes: base64Decode(url.slice(url.indexOf(',') + 1)) };
}

export function bytesToDataUrl(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${base64Encode(bytes)}`;
}

/** File extension for an image MIME type ("jpg" for JPEG, as the zip names it). */
export function extensionOf(mime: string): string {
  return mime === 'image/jpeg' ? 'jpg' : mime.replace(/^image\//, '');
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

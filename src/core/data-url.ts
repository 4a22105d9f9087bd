/** data: URLs <-> bytes, without DOM or Node APIs (atob/btoa exist in browsers, workers and Node). */

/** The bytes and MIME type of a base64 data URL, or null for anything else (including ''). */
export function bytesOfDataUrl(url: string): { bytes: Uint8Array; mime: string } | null {
  const m = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!m) return null;
  const bin = atob(m[2]);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return { bytes, mime: m[1] };
}

/** A base64 data URL of the bytes. */
export function dataUrlOfBytes(bytes: Uint8Array, mime: string): string {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return `data:${mime};base64,${btoa(bin)}`;
}

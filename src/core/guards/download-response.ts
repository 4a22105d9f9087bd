/**
 * Which responses of a run's tab become downloads, judged from the response's headers before any
 * byte of its body is read (background/downloads.ts holds them there, in every frame of the tab:
 * nothing reaches the disk until the person says yes). A response is a download when:
 * - it says so: `Content-Disposition: attachment`;
 * - it answers a request the browser made to download (a link with a `download` attribute): such
 *   a request is not a navigation (the debugger gives it no network id);
 * - it is a page load of a type the browser does not show (an executable, an archive, a
 *   `.desktop` file served as `application/x-desktop`…).
 * What this misses (a download the browser decides on later) is still caught when the browser
 * begins it (background/downloads.ts), with fewer guarantees. Pure.
 */
import { formatBytes } from '../files';

export interface ResponseSeen {
  url: string;
  status: number;
  /** response headers, as the debugger gives them */
  headers: Array<{ name: string; value: string }>;
  /** the request is a navigation (a page or frame load); false: the browser's own download request */
  navigation: boolean;
}

/** A download the response would make: what the person is asked about. */
export interface ResponseDownload {
  filename: string;
  /** bytes, when the response says (Content-Length) */
  size?: number;
  /** the MIME type it says it is (Content-Type, without parameters) */
  type?: string;
}

function header(r: ResponseSeen, name: string): string | undefined {
  return r.headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/** Types a browser shows in a tab or frame: a page load of any other type is saved instead. */
export function displayable(type: string): boolean {
  if (!type) return true; // no type: the browser sniffs it, and shows what it can
  if (/^(text|image|audio|video)\//.test(type)) return true;
  if (/[+/](xml|json)$/.test(type)) return true;
  return ['application/pdf', 'application/javascript', 'application/ecmascript', 'multipart/x-mixed-replace', 'application/x-javascript'].includes(type);
}

/** The disposition's file name (RFC 6266: filename* first), or null. */
export function dispositionName(disposition: string): string | null {
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      // a malformed encoding: the plain filename, if any
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  if (!plain) return null;
  return (plain[1] ?? plain[2]).replace(/\\(.)/g, '$1').trim() || null;
}

/** The name a file is saved under: the disposition's, else the URL's last part, never a path. */
export function fileNameOf(url: string, disposition?: string): string {
  const given = disposition ? dispositionName(disposition) : null;
  let fromUrl = '';
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    fromUrl = decodeURIComponent(last);
  } catch {
    fromUrl = '';
  }
  const name = (given ?? fromUrl).split(/[\\/]/).pop()!.trim();
  return name || 'download';
}

/** The download the response would make, or null when the browser would show it (or it is no file: a redirect, an error). */
export function downloadOfResponse(r: ResponseSeen): ResponseDownload | null {
  if (r.status < 200 || r.status >= 300 || r.status === 204 || r.status === 205) return null;
  const disposition = header(r, 'content-disposition') ?? '';
  const type = (header(r, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  const attachment = /^\s*attachment\b/i.test(disposition);
  if (!attachment && r.navigation && displayable(type)) return null;
  const length = Number(header(r, 'content-length'));
  return {
    filename: fileNameOf(r.url, disposition),
    ...(Number.isFinite(length) && length >= 0 && header(r, 'content-length') ? { size: length } : {}),
    ...(type ? { type } : {}),
  };
}

/** "application/x-desktop, 2.9 MB": what is known of a download's type and size, the same for the model and the person. */
export function downloadDetails(d: { size?: number; type?: string }): string {
  return [d.type, d.size !== undefined ? formatBytes(d.size) : undefined].filter(Boolean).join(', ');
}

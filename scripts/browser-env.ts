/**
 * The environment the browser process gets: only what Chromium needs (paths, locale, display,
 * fonts, session bus), by an allowlist. The runners hold VLM_API_KEY, JUDGE_API_KEY and whatever
 * else the shell exported; a browser that loads pages has no use for them, and anything that can
 * read /proc/<pid>/environ of a Chromium process (a crash report, a debugging tool, a
 * compromised renderer's broker) could read them. Pure.
 */

/** Names kept as they are. */
const KEEP = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR',
  'DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS',
]);
/** Name prefixes kept (locale, XDG dirs, fontconfig, Chromium's own switches such as CHROME_DEVEL_SANDBOX). */
const KEEP_PREFIXES = ['LC_', 'XDG_', 'FONTCONFIG_', 'CHROME_'];
/** A prefixed name that still looks like a secret (CHROME_API_KEY, …) is dropped. */
const SECRET_LIKE = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL/i;

function kept(name: string): boolean {
  if (KEEP.has(name)) return true;
  return KEEP_PREFIXES.some((p) => name.startsWith(p)) && !SECRET_LIKE.test(name);
}

/** `env` with only the allowed names (values unset dropped), DISPLAY set to `display` when given. */
export function browserEnv(env: NodeJS.ProcessEnv, display?: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && kept(name)) out[name] = value;
  }
  if (display) out.DISPLAY = display;
  return out;
}

/**
 * Where the core-seconds go, by process: CPU time (user + system, from /proc/PID/stat) of every
 * process of one Chromium (found by its profile folder on the command line), sorted into the
 * browser process, the extension's renderer (service worker and side panel), page renderers, the
 * GPU process and utility processes (network, storage, audio), plus this Node process (the runner,
 * the fake model, the static server). Linux only: elsewhere a sample is empty and the bench says so.
 */
import { readdirSync, readFileSync } from 'node:fs';

export type ProcessKind = 'browser' | 'extension' | 'pages' | 'gpu' | 'utility' | 'node';
export type CpuSample = Partial<Record<ProcessKind, number>>;

/** clock ticks per second of /proc's times (USER_HZ: 100 on Linux) */
const TICKS = 100;

function kindOf(cmdline: string[]): ProcessKind | null {
  const type = cmdline.find((a) => a.startsWith('--type='))?.slice(7);
  if (!type) return 'browser';
  if (type === 'renderer') return cmdline.includes('--extension-process') ? 'extension' : 'pages';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'zygote') return null; // its children are the renderers, counted themselves
  return 'utility';
}

/** Each live process of the Chromiums whose command line names `profileDir`: its kind and CPU seconds so far. */
function browserProcesses(profileDir: string): Map<string, { kind: ProcessKind; s: number }> {
  const out = new Map<string, { kind: ProcessKind; s: number }>();
  let pids: string[] = [];
  try { pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p)); } catch { return out; }
  // a renderer's command line does not name the profile: its browser's does; follow parent pids
  const parent = new Map<string, string>();
  const cmd = new Map<string, string[]>();
  const cpu = new Map<string, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(pid, rest[1]);
      cpu.set(pid, (Number(rest[11]) + Number(rest[12])) / TICKS);
      // Chromium's child processes rewrite their title: one string, the arguments joined by spaces
      cmd.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/\0| (?=--)/));
    } catch { /* gone */ }
  }
  const browsers = new Set([...cmd].filter(([, c]) => /chrom/i.test(c[0] ?? '') && !c.some((a) => a.startsWith('--type=')) && c.some((a) => a.includes(profileDir))).map(([p]) => p));
  const ofBrowser = (pid: string): boolean => {
    for (let p: string | undefined = pid, i = 0; p && p !== '0' && i < 8; p = parent.get(p), i++) if (browsers.has(p)) return true;
    return false;
  };
  for (const [pid, c] of cmd) {
    const kind = ofBrowser(pid) ? kindOf(c) : null;
    if (kind) out.set(pid, { kind, s: cpu.get(pid) ?? 0 });
  }
  return out;
}

const nodeSeconds = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
};

/** Seconds of CPU each kind of process of the Chromium whose profile is `profileDir` has used so far, and this process's. */
export function cpuSample(profileDir: string): CpuSample {
  const out: CpuSample = { node: nodeSeconds() };
  for (const { kind, s } of browserProcesses(profileDir).values()) out[kind] = (out[kind] ?? 0) + s;
  return out;
}

/**
 * CPU used from now until `stop()` by every Chromium whose command line names `profileDir` (those
 * started meanwhile too) and by this process, by kind. Processes are read every `everyMs`: one
 * that ends counts with what it had used at its last reading.
 */
export function cpuWatch(profileDir: string, everyMs = 250): { stop(): CpuSample } {
  const first = new Map<string, number>();
  const last = new Map<string, { kind: ProcessKind; s: number }>();
  const node0 = nodeSeconds();
  const read = () => {
    // a process started meanwhile counts its whole life (from 0)
    for (const [pid, p] of browserProcesses(profileDir)) last.set(pid, p);
  };
  // processes already running count from now
  for (const [pid, p] of browserProcesses(profileDir)) first.set(pid, p.s);
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      const out: CpuSample = { node: nodeSeconds() - node0 };
      for (const [pid, p] of last) out[p.kind] = (out[p.kind] ?? 0) + p.s - (first.get(pid) ?? 0);
      return out;
    },
  };
}

/** b − a, per kind, in core-seconds (rounded to ms), with the total. */
export function cpuSpent(a: CpuSample, b: CpuSample, per = 1): CpuSample & { total: number } {
  const out: CpuSample & { total: number } = { total: 0 };
  for (const k of Object.keys(b) as ProcessKind[]) {
    const d = ((b[k] ?? 0) - (a[k] ?? 0)) / per;
    out[k] = Math.round(d * 1000) / 1000;
    out.total += d;
  }
  out.total = Math.round(out.total * 1000) / 1000;
  return out;
}

/**
 * A CPU profile of a process taken through the inspector (V8's sampling profiler), summarised as the
 * frames that spent the most time themselves and the share of time by where the code comes from (a
 * package, node's own modules, this project, the garbage collector). Used by the benchmarks to print
 * where a route's time goes beside its throughput.
 */

import inspector from 'node:inspector';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  /** Samples taken within the window (idle included). */
  samples: number;
  /** Share of the non-idle samples spent in each frame itself, largest first. */
  top_frames: { frame: string; self_pct: number }[];
  /** Share of the non-idle samples by origin of the code, largest first. */
  by_origin: { origin: string; self_pct: number }[];
}

/** Where a frame's code comes from: `gc`, `node`, `native`, the package name, or `heatsource`. */
function originOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'gc';
  if (name === '(program)' || url === '') return 'native';
  if (url.startsWith('node:')) return 'node';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  return 'heatsource';
}

function frameName(frame: ProfileNode['callFrame']): string {
  const url = frame.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '')
    .replace(/.*\/dist\//, '');
  return `${frame.functionName || '(anonymous)'} ${url ? `${url}:${frame.lineNumber + 1}` : ''}`.trim();
}

/** Frames V8 records itself, which stand for no native function of anyone's code. */
const V8_PSEUDO_FRAMES = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

/**
 * The name a frame is listed under. A frame without a script is listed with its nearest caller that
 * has one: a native function (a C++ binding such as a socket write or a SQLite statement, line -1),
 * because V8 names those unreliably (the same better-sqlite3 statement call showed up as `bind`,
 * `Database` or `(anonymous)` from one profile to the next, which says nothing of whose work it is),
 * and code generated at run time (zod's compiled object parsers, `new Function`), which has no name.
 */
function listedName(node: ProfileNode, parentOf: Map<number, ProfileNode>): string {
  const frame = node.callFrame;
  if (frame.url !== '' || V8_PSEUDO_FRAMES.has(frame.functionName)) return frameName(frame);
  const kind = frame.lineNumber < 0 ? 'native' : 'generated code';
  for (let up = parentOf.get(node.id); up; up = parentOf.get(up.id)) {
    if (up.callFrame.url !== '') {
      return `${frame.functionName || '(anonymous)'} (${kind}) < ${frameName(up.callFrame)}`;
    }
  }
  return frameName(frame);
}

/**
 * Shares are of samples counted, not of the time between them: on a machine short of cores the
 * sampling thread itself waits, and one late sample would otherwise stand for all the time it waited.
 * Only samples taken within [fromUs, untilUs] count (microseconds of the monotonic clock, as
 * `process.hrtime.bigint() / 1000n`): the ones outside show the profiler starting and stopping.
 */
export function summariseProfile(
  profile: Profile,
  top = 12,
  fromUs = Number.NEGATIVE_INFINITY,
  untilUs = Number.POSITIVE_INFINITY,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n);
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] ?? 0;
    if (at > untilUs) break;
    if (at < fromUs) continue;
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + 1);
  }
  const frames = new Map<string, number>();
  const origins = new Map<string, number>();
  let total = 0;
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    total += us;
    if (frame.functionName === '(idle)') continue;
    busy += us;
    const name = listedName(byId.get(id)!, parentOf);
    frames.set(name, (frames.get(name) ?? 0) + us);
    const origin = originOf(frame.url, frame.functionName);
    origins.set(origin, (origins.get(origin) ?? 0) + us);
  }
  const pct = (n: number) => Math.round((1000 * n) / Math.max(1, busy)) / 10;
  return {
    samples: total,
    top_frames: [...frames]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame, us]) => ({ frame, self_pct: pct(us) })),
    by_origin: [...origins]
      .sort((a, b) => b[1] - a[1])
      .map(([origin, us]) => ({ origin, self_pct: pct(us) })),
  };
}

/** Starts V8's sampling profiler in this process; the returned function stops it and gives the profile. */
export async function startProfiling(intervalUs = 200): Promise<() => Promise<Profile>> {
  const session = new inspector.Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  await post('Profiler.start');
  return async () => {
    const { profile } = await post<{ profile: Profile }>('Profiler.stop');
    session.disconnect();
    return profile;
  };
}

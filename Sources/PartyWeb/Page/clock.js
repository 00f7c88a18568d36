// The party clock as this page sees it: the same estimator as the native member's ClockSync
// (docs/protocol.md, Times) on performance.now(), the browser's monotonic clock.
//
// Each exchange gives up = t1 − t0 = d↑ + θ and down = t3 − t2 = d↓ − θ; the lowest of each over a
// window are the base latencies ± θ, so θ is half their difference (NTP's symmetric assumption), and a
// line through per-second minima gives the drift between the two crystals.

/** Local seconds: the page's monotonic clock. */
export const localNow = () => performance.now() / 1000;

/** Exchanges sent back to back on joining: enough low-delay samples for a first estimate. */
export const BURST_COUNT = 16;
export const BURST_INTERVAL = 0.015;
/** The pace until the estimate has settled, and after it (one exchange every half second is
 * plenty for a drift of at most 500 ppm, and light on a phone's radio). */
export const STEADY_INTERVAL = 0.1;
export const CALM_INTERVAL = 0.5;
/** Settled: uncertainty under 25 ms and the offset still (under 0.1 ms a step) for 10 exchanges. */
export const CONVERGED_UNCERTAINTY = 0.025;
export const CALM_OFFSET_STEP = 0.1e-3;
export const CALM_EXCHANGES = 10;
/** At most this many pings unanswered after the burst; one unanswered for 10 s is lost. */
export const MAX_IN_FLIGHT = 2;
export const ANSWER_TIMEOUT = 10;
/** Window of samples kept, and the offset's window once the drift is known (before: 2–10 s by jitter). */
export const WINDOW_SECONDS = 60;
export const OFFSET_WINDOW = 20;
export const OFFSET_WINDOW_NO_DRIFT = [2, 10];
/** The drift line: per-second minima, trusted once its standard error is under 15 ppm; never past 500 ppm. */
export const DRIFT_BUCKET = 1;
export const DRIFT_STANDARD_ERROR = 15e-6;
export const MAX_DRIFT = 500e-6;

/** One exchange: t0 sent, t1 received by the server, t2 answered, t3 received back. */
export function sample(t0, t1, t2, t3) {
  return { t0, t1, t2, t3, offset: ((t1 - t0) + (t2 - t3)) / 2, delay: (t3 - t0) - (t2 - t1), local: (t0 + t3) / 2 };
}

/** party = local + offset + drift × (local − reference). */
export class Estimate {
  constructor(offset, drift, reference, minDelay) {
    Object.assign(this, { offset, drift, reference, minDelay, uncertainty: minDelay / 2 });
  }
  party(local) { return local + this.offset + this.drift * (local - this.reference); }
  local(party) { return (party - this.offset + this.drift * this.reference) / (1 + this.drift); }
}

export class ClockSync {
  constructor() {
    this.samples = [];
    this.estimate = null;
    this.driftFitted = false;
    this.calm = 0;
  }

  /** Forgets every exchange: after a reconnect the party clock may be another server process's. */
  reset() {
    this.samples = [];
    this.estimate = null;
    this.driftFitted = false;
    this.calm = 0;
  }

  get isBursting() { return this.samples.length < BURST_COUNT; }
  get isSettled() { return this.calm >= CALM_EXCHANGES; }
  /** Seconds until the next ping. */
  get nextInterval() {
    if (this.isBursting) return BURST_INTERVAL;
    return this.isSettled ? CALM_INTERVAL : STEADY_INTERVAL;
  }
  get maxInFlight() { return this.isBursting ? BURST_COUNT : MAX_IN_FLIGHT; }

  /** Adds an exchange; impossible ones are dropped. Returns whether it was kept. */
  add(s) {
    if (!(s.delay >= 0 && s.t3 >= s.t0 && s.t2 >= s.t1) || ![s.t0, s.t1, s.t2, s.t3].every(Number.isFinite)) return false;
    this.samples.push(s);
    while (this.samples.length > 512 || s.local - this.samples[0].local > WINDOW_SECONDS) this.samples.shift();
    const previous = this.estimate;
    const drift = fitDrift(this.samples);
    this.driftFitted = drift !== null;
    this.estimate = fit(this.samples, previous, drift);
    if (!this.isBursting && previous) {
      const step = Math.abs((this.estimate.party(s.local) - s.local) - (previous.party(s.local) - s.local));
      const contradicts = Math.abs(s.offset - (previous.party(s.local) - s.local)) - s.delay / 2 - previous.uncertainty > 1e-3;
      if (contradicts) this.calm = 0;
      else if (step < CALM_OFFSET_STEP && this.estimate.uncertainty < CONVERGED_UNCERTAINTY) this.calm += 1;
    }
    return true;
  }

  party(local) { return this.estimate ? this.estimate.party(local) : null; }
  local(party) { return this.estimate ? this.estimate.local(party) : null; }
}

export function fit(all, previous, fitted) {
  if (all.length === 0) return null;
  const latest = all[all.length - 1].local;
  const drift = fitted ?? previous?.drift ?? 0;
  const driftKnown = fitted !== null || (previous ? previous.drift !== 0 : false);
  const window = driftKnown ? OFFSET_WINDOW : noDriftWindow(all, latest);
  let up = Infinity, down = Infinity;
  for (const s of all) {
    if (latest - s.local > window) continue;
    up = Math.min(up, (s.t1 - s.t0) - drift * (s.local - latest));
    down = Math.min(down, (s.t3 - s.t2) + drift * (s.local - latest));
  }
  return new Estimate((up - down) / 2, drift, latest, up + down);
}

function noDriftWindow(all, latest) {
  const delays = all.filter((s) => latest - s.local <= OFFSET_WINDOW_NO_DRIFT[1]).map((s) => s.delay).sort((a, b) => a - b);
  if (delays.length === 0) return OFFSET_WINDOW_NO_DRIFT[0];
  const jitter = delays[delays.length >> 1] - delays[0];
  return Math.min(Math.max(OFFSET_WINDOW_NO_DRIFT[0] + jitter * 400, OFFSET_WINDOW_NO_DRIFT[0]), OFFSET_WINDOW_NO_DRIFT[1]);
}

/** Least-squares slope of offset over time through the better half of per-bucket minima, when trusted. */
export function fitDrift(all) {
  if (all.length === 0) return null;
  const first = all[0].local;
  const buckets = new Map();
  for (const s of all) {
    const b = Math.floor((s.local - first) / DRIFT_BUCKET);
    const held = buckets.get(b);
    if (!held || s.delay < held.delay) buckets.set(b, s);
  }
  const minima = [...buckets.values()].sort((a, b) => a.delay - b.delay);
  const kept = minima.slice(0, Math.max(2, minima.length >> 1));
  if (kept.length < 5) return null;
  const n = kept.length;
  const mx = kept.reduce((a, s) => a + s.local, 0) / n, my = kept.reduce((a, s) => a + s.offset, 0) / n;
  let sxx = 0, sxy = 0;
  for (const s of kept) { sxx += (s.local - mx) ** 2; sxy += (s.local - mx) * (s.offset - my); }
  if (sxx <= 0) return null;
  const slope = sxy / sxx;
  const residual = kept.reduce((a, s) => a + (s.offset - (my + slope * (s.local - mx))) ** 2, 0);
  const standardError = Math.sqrt(residual / Math.max(n - 2, 1) / sxx);
  if (!(standardError < DRIFT_STANDARD_ERROR)) return null;
  return Math.min(Math.max(slope, -MAX_DRIFT), MAX_DRIFT);
}

/** Sends pings at the estimator's pace over `send(t0, id)`, and takes their answers. */
export class PingLoop {
  constructor(clock, send) {
    this.clock = clock;
    this.send = send;
    this.inFlight = new Map();
    this.nextId = 1;
    this.timer = null;
  }
  start() { this.stop(); this.tick(); }
  stop() { clearTimeout(this.timer); this.timer = null; this.inFlight.clear(); }
  tick() {
    const now = localNow();
    for (const [id, sent] of this.inFlight) if (now - sent > ANSWER_TIMEOUT) this.inFlight.delete(id);
    if (this.inFlight.size < this.clock.maxInFlight) {
      const id = this.nextId++;
      this.inFlight.set(id, now);
      this.send(id, now);
    }
    this.timer = setTimeout(() => this.tick(), this.clock.nextInterval * 1000);
  }
  /** A `timePong`: returns whether it was one of ours. */
  pong(message) {
    if (!this.inFlight.delete(message.id)) return false;
    this.clock.add(sample(message.t0, message.t1, message.t2, localNow()));
    return true;
  }
}

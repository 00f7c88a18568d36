// An item the browser cannot open as it is, played through Media Source Extensions: the host remuxes
// it to fragmented MP4 (its sound to AAC when needed) in segments that each start at a keyframe
// (docs/protocol.md, "The browser page"). The page appends the init segment, then the segments
// around the playing position — the one a seek lands in first — and drops what is far behind.
// The <video> stays an ordinary element to VideoSync: currentTime, seeks, play and rate as ever.

import { webPath } from "./media.js";

/** Seconds fetched ahead of the playing position: rides out a slow segment or two. */
export const AHEAD_SECONDS = 30;
/** Seconds kept behind it (a short seek back is instant); older data is removed. */
export const BEHIND_SECONDS = 30;
/** A segment counts as buffered when the buffer covers its span to within this: its first picture
 * and last sound frame need not fall on its exact bounds. */
export const COVER_TOLERANCE = 0.25;
/** A failed segment is fetched again after this long, up to RETRIES times, before the page gives up. */
export const RETRY_SECONDS = 1;
export const RETRIES = 3;

/** The segment holding time `t` (the first for anything before it, the last for anything after). */
export function segmentAt(segments, t) {
  let low = 0, high = segments.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (segments[middle].start <= t) low = middle; else high = middle - 1;
  }
  return low;
}

/** Whether `ranges` ([[start, end], …], a TimeRanges' contents) cover `span` within COVER_TOLERANCE. */
export function covered(ranges, span) {
  return ranges.some(([start, end]) => start <= span.start + COVER_TOLERANCE && end >= span.end - COVER_TOLERANCE);
}

/**
 * The segment to fetch next for playing at `time`: the first one from the one holding `time` up to
 * `ahead` seconds on that `has(k)` says is not buffered; null when all are.
 */
export function nextSegment(segments, time, has, ahead = AHEAD_SECONDS) {
  if (!segments.length) return null;
  for (let k = segmentAt(segments, time); k < segments.length && segments[k].start < time + ahead; k++) {
    if (!has(k)) return k;
  }
  return null;
}

/**
 * The parts of `ranges` to remove when playing at `time`: whatever lies before the segment holding
 * `time − behind`, and after the one holding `time + ahead` (left there by a seek back).
 */
export function trimRanges(segments, ranges, time, behind = BEHIND_SECONDS, ahead = AHEAD_SECONDS) {
  if (!segments.length) return [];
  const keepFrom = segments[segmentAt(segments, time - behind)].start;
  const keepTo = segments[segmentAt(segments, time + ahead)].end;
  const out = [];
  for (const [start, end] of ranges) {
    if (start < keepFrom) out.push([start, Math.min(end, keepFrom)]);
    if (end > keepTo) out.push([Math.max(start, keepTo), end]);
  }
  return out.filter(([start, end]) => end - start > 0.001);
}

/** The reason in the party's one-line error answer ("500 Internal Server Error: REASON"). */
export function reasonOf(text) {
  return text.trim().replace(/^\d{3} [^:]*: /, "");
}

/** A TimeRanges as [[start, end], …]. */
function ranges(timeRanges) {
  const out = [];
  for (let i = 0; i < timeRanges.length; i++) out.push([timeRanges.start(i), timeRanges.end(i)]);
  return out;
}

export class MsePlayer {
  /** `hooks`: { problem(text) } — the page's line when the remux cannot be played after all. */
  constructor(video, party, index, hooks) {
    this.video = video;
    this.path = (name) => webPath(party, index, name);
    this.hooks = hooks;
    this.index = null;
    this.loaded = new Set();
    this.running = false;
    this.stopped = false;
    this.fetching = null;       // { k, controller } of the segment on its way
    this.listeners = [];
  }

  /** Attaches a MediaSource at once (a seek asked before it is ready is kept by the element), then
   * reads the index and starts appending. */
  attach() {
    this.mediaSource = new MediaSource();
    this.url = URL.createObjectURL(this.mediaSource);
    this.video.src = this.url;
    this.mediaSource.addEventListener("sourceopen", () => this.open().catch((error) => this.fail(error.message)), { once: true });
  }

  async open() {
    const answer = await fetch(this.path("index.json"), { credentials: "same-origin" });
    if (!answer.ok) throw new Error(`the host does not convert it: ${reasonOf(await answer.text())}`);
    const index = await answer.json();
    if (index.plan === "unplayable" || !index.type) throw new Error(index.reason ?? "the host does not convert it");
    if (!MediaSource.isTypeSupported(index.type)) throw new Error(`this browser cannot play ${index.type}`);
    if (this.stopped) return;
    this.index = index;
    this.mediaSource.duration = index.duration;
    this.buffer = this.mediaSource.addSourceBuffer(index.type);
    this.buffer.mode = "segments";
    this.buffer.timestampOffset = index.timestampOffset ?? 0;
    await this.append(await this.fetchBytes("init.mp4"));
    this.addTracks(index.subtitles ?? []);
    for (const note of index.notes ?? []) console.info(note);
    this.on("seeking", () => this.seeked());
    this.on("timeupdate", () => this.pump());
    this.on("waiting", () => this.recheck());
    this.pump();
  }

  /** Detaches: the element is emptied, fetches abandoned, tracks removed. */
  stop() {
    this.stopped = true;
    this.fetching?.controller.abort();
    for (const [type, listener] of this.listeners) this.video.removeEventListener(type, listener);
    for (const track of this.tracks ?? []) track.remove();
    if (this.url) URL.revokeObjectURL(this.url);
  }

  on(type, listener) {
    this.video.addEventListener(type, listener);
    this.listeners.push([type, listener]);
  }

  /** Subtitle tracks as <track> elements (WebVTT from the host), the file's default one showing. */
  addTracks(subtitles) {
    this.tracks = subtitles.map((s) => {
      const track = document.createElement("track");
      track.kind = "subtitles";
      track.src = this.path(`subs/${s.index}.vtt`);
      track.label = s.title ?? s.language ?? `subtitles ${s.index + 1}`;
      if (s.language) track.srclang = s.language;
      if (s.default) track.default = true;
      this.video.append(track);
      return track;
    });
  }

  has(k) { return this.loaded.has(k); }

  /** A seek: the segment it lands in comes first; a fetch for one it no longer needs is dropped. */
  seeked() {
    const segments = this.index.segments;
    const target = this.video.currentTime;
    const wanted = segmentAt(segments, target);
    if (this.fetching && (this.fetching.k < wanted || segments[this.fetching.k].start >= target + AHEAD_SECONDS)) {
      this.fetching.controller.abort();
    }
    this.recheck();
  }

  /** Forgets segments the browser dropped on its own (it evicts when its buffer is full). */
  recheck() {
    const buffered = ranges(this.buffer.buffered);
    const k = segmentAt(this.index.segments, this.video.currentTime);
    if (this.loaded.has(k) && !covered(buffered, this.index.segments[k])) this.loaded.delete(k);
    this.pump();
  }

  /** Fetches and appends segments until AHEAD_SECONDS are buffered; one loop at a time. */
  async pump() {
    if (this.running || this.stopped || !this.index) return;
    this.running = true;
    try {
      for (;;) {
        const time = this.video.currentTime;
        await this.trim(time);
        const k = nextSegment(this.index.segments, time, (i) => this.has(i));
        if (k === null) break;
        const bytes = await this.fetchSegment(k);
        if (this.stopped) return;
        if (bytes) { await this.append(bytes); this.loaded.add(k); }
      }
      this.endIfComplete();
    } catch (error) {
      this.fail(error.message);
    } finally {
      this.running = false;
    }
  }

  /** Segment `k`'s bytes, retried a few times; null when a seek made it unneeded. */
  async fetchSegment(k) {
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      this.fetching = { k, controller };
      try {
        return await this.fetchBytes(`${k}.m4s`, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return null;
        if (attempt + 1 >= RETRIES) throw new Error(`segment ${k}: ${error.message}`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_SECONDS * 1000));
      } finally {
        this.fetching = null;
      }
    }
  }

  async fetchBytes(name, signal) {
    const answer = await fetch(this.path(name), { credentials: "same-origin", signal });
    if (!answer.ok) throw new Error(reasonOf(await answer.text()));
    return answer.arrayBuffer();
  }

  /** Appends `bytes`; when the browser's buffer is full, drops what is behind and tries once more. */
  async append(bytes) {
    try {
      await this.operate(() => this.buffer.appendBuffer(bytes));
    } catch (error) {
      if (error.name !== "QuotaExceededError") throw error;
      await this.trim(this.video.currentTime, 5, 10);
      await this.operate(() => this.buffer.appendBuffer(bytes));
    }
  }

  /** Removes what lies far from `time` (trimRanges), forgetting the segments it held. */
  async trim(time, behind = BEHIND_SECONDS, ahead = AHEAD_SECONDS) {
    for (const [start, end] of trimRanges(this.index.segments, ranges(this.buffer.buffered), time, behind, ahead)) {
      await this.operate(() => this.buffer.remove(start, end));
      this.index.segments.forEach((span, k) => { if (span.end > start && span.start < end) this.loaded.delete(k); });
    }
  }

  /** Runs one SourceBuffer operation and waits for it to end. */
  operate(start) {
    return new Promise((resolve, reject) => {
      const done = () => { this.buffer.removeEventListener("error", failed); resolve(); };
      const failed = () => { this.buffer.removeEventListener("updateend", done); reject(new Error("the browser could not take a segment")); };
      this.buffer.addEventListener("updateend", done, { once: true });
      this.buffer.addEventListener("error", failed, { once: true });
      try { start(); } catch (error) {
        this.buffer.removeEventListener("updateend", done);
        this.buffer.removeEventListener("error", failed);
        reject(error);
      }
    });
  }

  /** Once the last segment is in, the stream is ended so the element plays to its end. */
  endIfComplete() {
    const last = this.index.segments.length - 1;
    if (this.loaded.has(last) && this.mediaSource.readyState === "open" && !this.buffer.updating) this.mediaSource.endOfStream();
  }

  fail(message) {
    if (this.stopped) return;
    this.hooks.problem(message);
  }
}

// Unit tests of the page's pure parts, run by `node --test` (PageScriptTests.swift runs them in the suite).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";

const page = new URL("../../../Sources/PartyWeb/Page/", import.meta.url);
globalThis.performance ??= { now: () => Date.now() };
const { ClockSync, sample, fit, fitDrift } = await import(new URL("clock.js", page));
const { ConnectionMachine, PROTOCOL_VERSION, GIVE_UP_AFTER, RETRY_MAX } = await import(new URL("connection.js", page));
const { correction, positionAt, clockProfile, SEEK_THRESHOLD, EPISODE_THRESHOLD, EPISODE_DELTA, HOLD_THRESHOLD, MEASURE_WINDOW,
  MEASURE_INTERVAL } = await import(new URL("correction.js", page));
const { playability, containerType, urlContainerType, webPath } = await import(new URL("media.js", page));
const { segmentAt, covered, nextSegment, trimRanges, reasonOf, COVER_TOLERANCE } = await import(new URL("mse.js", page));
import { readFileSync } from "node:fs";
const { hmacSHA256Hex, mediaToken } = await import(new URL("hmac.js", page));

test("the media credential is the server's HMAC-SHA256, for any key and message length", () => {
  for (const [key, message] of [["abc", "tandem-media:brave-otter-42"], ["k".repeat(100), "m".repeat(300)], ["", ""], ["k", "a".repeat(55)], ["k", "a".repeat(56)]]) {
    assert.equal(hmacSHA256Hex(key, message), createHmac("sha256", key).update(message).digest("hex"));
  }
  assert.equal(mediaToken("secret", "p1"), createHmac("sha256", "secret").update("tandem-media:p1").digest("hex"));
});

test("the clock finds the offset from the lowest one-way times of each direction", () => {
  const clock = new ClockSync();
  const offset = 1234.5678;                 // party = local + offset
  let local = 10;
  for (let i = 0; i < 40; i++) {
    const up = 0.002 + (i % 5) * 0.003, down = 0.002 + ((i * 3) % 7) * 0.002;  // jitter, symmetric base 2 ms
    const t0 = local, t1 = t0 + up + offset, t2 = t1 + 0.0001, t3 = t2 - offset + down;
    assert.ok(clock.add(sample(t0, t1, t2, t3)));
    local += 0.1;
  }
  assert.ok(Math.abs(clock.estimate.offset - offset) < 1e-6, `offset ${clock.estimate.offset}`);
  assert.ok(Math.abs(clock.estimate.minDelay - 0.004) < 1e-6);
  assert.ok(Math.abs(clock.local(clock.party(50)) - 50) < 1e-9);
  assert.equal(clock.add(sample(1, 2, 3, 0.5)), false, "an impossible exchange is dropped");
});

test("the clock fits a drift of 100 ppm and carries the offset along it", () => {
  const all = [];
  for (let i = 0; i < 300; i++) {
    const t0 = i * 0.2, drift = 100e-6, offset = 5 + drift * t0;
    all.push(sample(t0, t0 + 0.001 + offset, t0 + 0.0011 + offset, t0 + 0.0021));
  }
  const drift = fitDrift(all);
  assert.ok(drift !== null && Math.abs(drift - 100e-6) < 2e-6, `drift ${drift}`);
  const estimate = fit(all, null, drift);
  assert.ok(Math.abs(estimate.party(60) - 60 - (5 + 100e-6 * 60)) < 1e-4);
});

test("positions follow the timeline, and hold before its instant", () => {
  const t = { position: 10, partyTime: 100, rate: 1.5, playing: true };
  assert.equal(positionAt(t, 99), 10);
  assert.equal(positionAt(t, 102), 13);
  assert.equal(positionAt({ ...t, playing: false }, 200), 10);
});

test("a correction is nothing, a run counting the rate change's step, or a seek", () => {
  const steps = { faster: -0.02, slower: -0.02 };
  assert.equal(correction(0.002, 1, steps).kind, "none");
  assert.equal(correction(EPISODE_THRESHOLD / 2, 1).kind, "none");
  assert.equal(correction(SEEK_THRESHOLD + 0.01, 1).kind, "seek");
  assert.equal(correction(-SEEK_THRESHOLD - 0.01, 1).kind, "seek");
  const zero = { faster: 0, slower: 0 };
  for (const [error, s] of [[0.05, zero], [-0.05, zero], [0.05, steps], [0.012, steps], [-0.03, steps], [0.2, steps],
                            [0.0196, { faster: -0.0197, slower: -0.0197 }], [0.03, { faster: -0.025, slower: -0.015 }]]) {
    const run = correction(error, 1, s);
    assert.equal(run.kind, "episode", `error ${error}`);
    assert.ok(Math.abs(Math.abs(run.rate - 1) - EPISODE_DELTA) < 1e-12);
    // After the run, the error is gone (within the shortest run's reach): the rate's share plus the step.
    const after = error + (run.rate - 1) * run.seconds + (run.rate > 1 ? s.faster : s.slower);
    assert.ok(Math.abs(after) <= EPISODE_DELTA * 0.1 + 1e-9, `error ${error}: ${after}`);
  }
  // 12 ms ahead with a −20 ms step: a run faster, not a slower one.
  assert.ok(correction(0.012, 1, steps).rate > 1);
  // At 2× the run's rate scales with the base rate.
  const fast = correction(0.05, 2, zero);
  assert.ok(Math.abs(0.05 + (fast.rate - 2) * fast.seconds) < 1e-9);
});

test("Chromium's measured clock offsets apply to Chromium only", () => {
  const chromium = clockProfile("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36");
  assert.ok(chromium.heardBehind > 0.004 && chromium.stretchedAhead > 0.015 && chromium.runStep < -0.01);
  const firefox = clockProfile("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
  assert.deepEqual(firefox, { heardBehind: 0, stretchedAhead: 0, runStep: 0 });
});

test("the connection says hello, keeps its seat across a reconnect, and gives up after a minute", () => {
  const m = new ConnectionMachine({ party: "p1", key: "k", name: "Ann" });
  assert.deepEqual(m.start(), [{ kind: "connect" }]);
  const [hello] = m.opened();
  assert.deepEqual(hello.message, { type: "hello", version: PROTOCOL_VERSION, party: "p1", key: "k", name: "Ann" });
  const [welcomed] = m.message({ type: "welcome", token: "seat-1" }, 0);
  assert.equal(welcomed.kind, "welcomed");
  assert.equal(m.message({ type: "chatMessage", from: "b", text: "hi" }, 0)[0].kind, "deliver");
  const lost = m.closed(1);
  assert.deepEqual(lost.map((a) => a.kind), ["lost", "retry"]);
  assert.equal(lost[1].after, 0.1);
  assert.deepEqual(m.retry(), [{ kind: "connect" }]);
  assert.equal(m.opened()[0].message.resume, "seat-1");
  let delay = 0;
  for (let t = 2; t < 1 + GIVE_UP_AFTER - 1; t += 5) { const a = m.closed(t); delay = a.at(-1).after; m.retry(); }
  assert.equal(delay, RETRY_MAX);
  const [ended] = m.closed(1 + GIVE_UP_AFTER);
  assert.equal(ended.kind, "ended");
  assert.match(ended.reason, /lost the server/);
  assert.deepEqual(m.closed(200), []);
});

test("each refusal ends the page with its own line; a restart only retries", () => {
  const refusal = (code, message, seated = false) => {
    const m = new ConnectionMachine({ party: "p1", key: "k", name: "Ann" });
    m.start();
    if (seated) { m.message({ type: "welcome", token: "t" }, 0); m.closed(1); m.retry(); }
    return m.message({ type: "error", code, message }, 2);
  };
  assert.match(refusal("wrongKey", "wrong key")[0].reason, /wrong key — check that the link was copied whole/);
  assert.match(refusal("versionMismatch", "version mismatch: this server speaks protocol 10, the client 9")[0].reason, /protocol 10.*this page speaks protocol 9/);
  assert.match(refusal("unknownParty", "no such party")[0].reason, /no party "p1".*ended, or the link is wrong/);
  assert.equal(refusal("unknownParty", "no such party", true)[0].kind, "notice");
  assert.equal(refusal("serverShutdown", "restarting")[0].kind, "notice");
  assert.equal(refusal("redirect", "elsewhere")[0].kind, "ended");
  const m = new ConnectionMachine({ party: "p1", key: "k", name: "Ann" });
  m.start();
  const node = { host: "10.0.0.2", port: 7000, fingerprint: "fp" };
  assert.deepEqual(m.message({ type: "error", code: "redirect", redirect: node }, 0), [{ kind: "redirect", node }]);
  assert.match(m.message({ type: "partyEnded", reason: "the host left" }, 0)[0].reason, /the party ended: the host left/);
});

/** Chromium 156's answers, as far as these tests ask: no HEVC, AC-3 or E-AC-3; Matroska is not a type it names. */
const chromium = (type) => (/avc1|mp4a|vp09|opus|vorbis|av01|vp8|mp3|flac|"1"/.test(type) && !/hvc1|ac-3|ec-3|theora/.test(type) ? "probably" : "");

test("an item plays when the browser decodes its codecs, and says which one it does not", () => {
  const item = (title, ...streams) => ({ title, identity: { duration: 60, streams } });
  assert.deepEqual(playability(item("party.mp4", "video h264 640x360", "audio aac 48000 Hz 2 ch"), chromium), { ok: true });
  assert.deepEqual(playability(item("clip.webm", "video vp9 640x360", "audio opus 48000 Hz 2 ch"), chromium), { ok: true });
  assert.match(playability(item("film.mkv", "video hevc 1920x1080", "audio aac 48000 Hz 2 ch"), chromium).reason, /does not decode HEVC video/);
  const ac3 = playability(item("film.mp4", "video h264 1920x1080", "audio ac3 48000 Hz 6 ch"), chromium);
  assert.ok(ac3.convert, "AC-3 is transcoded by the host");
  assert.match(ac3.reason, /does not decode AC3 sound/);
  assert.match(playability(item("film.xyz", "video h264 1920x1080"), chromium).reason, /cannot open film.xyz/);
  assert.match(playability(item("film.mkv", "video vp8 640x360"), chromium).reason, /cannot play VP8 video from film.mkv's container/);
  assert.match(playability(item("film.mkv", "video h264 640x360", "audio ac3 48000 Hz 6 ch"), chromium, false).reason, /no Media Source Extensions/);
  const url = { ...item("film.mkv", "video h264 640x360"), url: "https://example.com/film.mkv" };
  assert.ok(!playability(url, chromium).convert, "the party converts only the files it serves");
  // A video site's link names no file type: its codecs say the container; a query never hides one.
  const site = (title, url, ...streams) => ({ ...item(title, ...streams), url });
  assert.deepEqual(playability(site("A Talk", "https://cdn.example/videoplayback?itag=18&sig=x.y", "video h264 640x360", "audio aac 44100 Hz 2 ch"), chromium), { ok: true });
  assert.deepEqual(playability(site("A Talk", "https://cdn.example/v/7", "video vp9 1280x720", "audio opus 48000 Hz 2 ch"), chromium), { ok: true });
  assert.deepEqual(playability(site("A Talk", "https://cdn.example/film.mp4?token=a.b", "video h264 640x360"), chromium), { ok: true });
  assert.match(playability(site("A Talk", "https://cdn.example/film.mkv?token=1", "video h264 640x360"), chromium).reason, /cannot open A Talk's container/);
  assert.match(playability(site("A Talk", "https://cdn.example/play", "video h264 640x360", "audio opus 48000 Hz 2 ch"), chromium).reason, /cannot open A Talk's container/);
  assert.equal(urlContainerType("https://cdn.example/a", [{ kind: "audio", codec: "mp3" }, { kind: "video", codec: "mjpeg" }]), "video/mp4");
  const split = { ...item("Two Streams", "video h264 640x360", "audio aac 44100 Hz 2 ch"), url: "https://example.com/v.mp4", audioURL: "https://example.com/a.m4a" };
  // A web page's separate picture and sound: each in an element of its own, when both play here.
  assert.deepEqual(playability(split, chromium), { ok: true, split: true });
  const formats = site("A Talk", "https://cdn.example/videoplayback?itag=248", "video vp9 1920x1080", "audio opus 48000 Hz 2 ch");
  assert.deepEqual(playability({ ...formats, audioURL: "https://cdn.example/videoplayback?itag=251" }, chromium), { ok: true, split: true });
  const hevc = site("A Talk", "https://cdn.example/v", "video hevc 1920x1080", "audio aac 48000 Hz 2 ch");
  assert.match(playability({ ...hevc, audioURL: "https://cdn.example/a" }, chromium).reason, /does not decode HEVC video/);
  assert.match(playability({ ...split, identity: { duration: 60, streams: ["video h264 640x360"] } }, chromium).reason, /not both found/);
  assert.equal(containerType("a.M4A"), "audio/mp4");
  assert.equal(webPath("brave otter", 2, "3.m4s"), "/party/brave%20otter/media/2/web/3.m4s");
});

test("the page and the host decide alike, by one table (playability.json)", () => {
  const { rows } = JSON.parse(readFileSync(new URL("playability.json", import.meta.url), "utf8"));
  assert.ok(rows.length >= 15);
  for (const row of rows) {
    const verdict = playability({ title: row.title, identity: { duration: 60, streams: row.streams } }, chromium);
    const got = verdict.ok ? "direct" : verdict.convert ? "convert" : `fail:${verdict.reason}`;
    if (row.page.startsWith("fail:")) assert.ok(got.includes(row.page.slice(5)), `${row.title} ${row.streams}: ${got}`);
    else assert.equal(got, row.page, `${row.title} ${row.streams}`);
  }
});

test("segments are chosen around the playing position, the seek's first", () => {
  const segments = [0, 2, 4, 6, 8, 10, 12].map((start, k, all) => ({ start, end: all[k + 1] ?? 13.5 }));
  assert.equal(segmentAt(segments, -1), 0);
  assert.equal(segmentAt(segments, 0), 0);
  assert.equal(segmentAt(segments, 3.99), 1);
  assert.equal(segmentAt(segments, 4), 2);
  assert.equal(segmentAt(segments, 99), 6);
  const loaded = new Set([0, 1]);
  assert.equal(nextSegment(segments, 1, (k) => loaded.has(k), 30), 2, "the first missing one ahead");
  assert.equal(nextSegment(segments, 9, (k) => loaded.has(k), 30), 4, "a seek: the segment it lands in first");
  assert.equal(nextSegment(segments, 1, (k) => loaded.has(k), 3.5), 2);
  assert.equal(nextSegment(segments, 1, (k) => loaded.has(k), 1), null, "nothing missing within the window");
  assert.equal(nextSegment(segments, 13, () => true), null);
  assert.equal(nextSegment([], 0, () => false), null);
});

test("the buffer keeps a window around the playing position", () => {
  const segments = Array.from({ length: 60 }, (_, k) => ({ start: k * 2, end: k * 2 + 2 }));
  // Playing at 70 s: keep from the segment holding 40 s to the one holding 100 s.
  assert.deepEqual(trimRanges(segments, [[0, 80]], 70, 30, 30), [[0, 40]]);
  // A seek back to 10 s leaves 60–90 s ahead: everything past the one holding 40 s goes.
  assert.deepEqual(trimRanges(segments, [[0, 20], [60, 90]], 10, 30, 30), [[60, 90]]);
  assert.deepEqual(trimRanges(segments, [[30, 50]], 45, 30, 30), []);
  assert.deepEqual(trimRanges([], [[0, 10]], 5), []);
  // Covered within the tolerance: a segment's first picture may start a little after its bound.
  assert.ok(covered([[0.005, 4.0]], { start: 0, end: 4 }));
  assert.ok(covered([[0, 3.9]], { start: 2, end: 4 }));
  assert.ok(!covered([[0, 4 - COVER_TOLERANCE - 0.01]], { start: 2, end: 4 }));
  assert.ok(!covered([[0, 2], [2.5, 6]], { start: 2, end: 4 }));
});

test("the host's one-line errors are shown without their status", () => {
  assert.equal(reasonOf("500 Internal Server Error: converting item 0: old.avi is damaged\n"), "converting item 0: old.avi is damaged");
  assert.equal(reasonOf("404 Not Found: no item 3 in this party\n"), "no item 3 in this party");
  assert.equal(reasonOf("plain words"), "plain words");
});

test("a play() the page cut short itself (a newer pause or seek) is no problem; a refused one is", async () => {
  const { VideoSync } = await import(new URL("sync.js", page));
  const clock = { party: () => 0, local: () => 0, estimate: null };
  for (const [name, said] of [["AbortError", false], ["NotAllowedError", true]]) {
    const problems = [];
    const error = Object.assign(new Error(`play() ${name}`), { name });
    const element = { addEventListener() {}, pause() {}, play: () => Promise.reject(error), playbackRate: 1, paused: true };
    const sync = new VideoSync(element, clock, { state() {}, problem: (text) => problems.push(text) });
    sync.timeline = { epoch: 1, playing: true, position: 0, partyTime: 0, rate: 1 };
    sync.start(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(problems.length, said ? 1 : 0, `${name}: ${problems}`);
  }
});

test("once a window reads it in sync, only an error past the hold starts a run, until the next command", async () => {
  const { VideoSync } = await import(new URL("sync.js", page));
  const clock = { party: (local) => local, local: (party) => party, estimate: 0 };
  const element = { addEventListener() {}, pause() {}, play: () => Promise.resolve(), playbackRate: 1, paused: false };
  const sync = new VideoSync(element, clock, { state() {}, problem() {} });
  sync.profile = { heardBehind: 0, stretchedAhead: 0, runStep: 0 };  // the readings are the errors
  sync.runSteps = { faster: 0, slower: 0, otherFaster: 0, otherSlower: 0 };
  sync.timeline = { epoch: 1, playing: true, position: 0, partyTime: 0, rate: 1 };
  sync.phase = "following";
  let t = 1e6;  // local seconds, past any settling wait
  // A second of readings `error` ahead of the party (the party clock is the local one, at position 0).
  const second = (error) => { for (let i = 0; i < MEASURE_WINDOW; i++) { t += MEASURE_INTERVAL; sync.measure(t + error, t); } };
  const between = (EPISODE_THRESHOLD + HOLD_THRESHOLD) / 2;
  second(between);
  assert.notEqual(element.playbackRate, 1, "before it was ever in sync, an error past EPISODE_THRESHOLD is corrected");
  sync.episodeUntil = 0; element.playbackRate = 1; sync.applied();
  second(EPISODE_THRESHOLD / 2);
  assert.equal(sync.holding, true);
  second(between);
  assert.equal(element.playbackRate, 1, "in sync, the same error is what a browser's clock wanders by: left alone");
  second(HOLD_THRESHOLD * 1.2);
  assert.notEqual(element.playbackRate, 1, "past the hold, a run");
  sync.episodeUntil = 0; element.playbackRate = 1; sync.applied();  // a command landed
  second(between);
  assert.notEqual(element.playbackRate, 1, "after a command the hold is off again");
  sync.episodeUntil = 0; sync.timeline = { ...sync.timeline, epoch: 2, rate: 1.25 }; element.playbackRate = 1.25; sync.applied();
  second(EPISODE_THRESHOLD / 2);
  assert.equal(sync.holding, false, "at another rate the stretcher wanders more: no hold");
});

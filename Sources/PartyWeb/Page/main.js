// The browser guest: joins the party named by this page's path with the key in its fragment, keeps
// the party clock, plays the party's timeline, and shows who is here and what they say.

import { ClockSync, PingLoop, localNow } from "./clock.js";
import { ConnectionMachine, PartyConnection } from "./connection.js";
import { mediaToken } from "./hmac.js";
import { playability, source } from "./media.js";
import { MEASURE_INTERVAL } from "./correction.js";
import { Controls } from "./controls.js";
import { MsePlayer } from "./mse.js";
import { VideoSync } from "./sync.js";
import { $, appendChat, fingerprintHex, formatTime, presenceText, problem, renderPeople, status, toast } from "./ui.js";

/** How often the page tells the party how it is (and at once when its state changes). */
const STATUS_INTERVAL = 1;

const party = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const fragment = new URLSearchParams(location.hash.slice(1));
const key = fragment.get("key");
const fingerprint = fragment.get("fp");

const video = $("video");
/** An item's separate sound (a web page's sound format beside its picture format), on the same timeline. */
const sound = $("sound");
const clock = new ClockSync();
let connection = null;
let pings = null;
let welcome = null;
let participants = [];
let item = -1;
let itemProblem = null;
let lastState = null;
let audioOutput = null;
/** When Join was clicked, and when the page was first in sync (ready) and first within 10 ms (ms, performance.now()). */
const timing = { joinAt: null, readyAt: null, within10At: null };
/** How the item plays: "direct" (the file in the <video>), "split" (its picture in the <video>, its sound in
 * the <audio>), "remux" (the host's segments through MSE), or null. */
let mediaSource = null;
let split = false;
let mse = null;

/** What a VideoSync tells the page; `isHeard()`: whether its element is the one heard (the join timing's). */
const syncEvents = (isHeard) => ({
  state: () => sendStatus(),
  measured: (error) => { if (isHeard() && timing.within10At === null && Math.abs(error) < 0.01) timing.within10At = performance.now(); },
  problem: (text) => { problem(text); sendStatus(); },
});
const sync = new VideoSync(video, clock, syncEvents(() => !split));
const soundSync = new VideoSync(sound, clock, syncEvents(() => split));
/** The syncs at work: the <video>'s, and the <audio>'s for a split item. */
const syncs = () => (split ? [sync, soundSync] : [sync]);
/** The sync of what is heard: the <audio>'s for a split item, else the <video>'s. */
const heard = () => (split ? soundSync : sync);
/** In sync when the picture is, and the separate sound too. */
const isReady = () => sync.isReady && (!split || soundSync.isReady);
const isBuffering = () => sync.buffering || (split && soundSync.buffering);

/** What the party's lists and the tests read. */
window.tandem = {
  state: () => ({
    phase: connection?.machine.phase ?? "idle", syncPhase: heard().phase, ready: isReady(), epoch: sync.appliedEpoch,
    joinToReadyMs: timing.readyAt === null ? null : timing.readyAt - timing.joinAt,
    joinToWithin10Ms: timing.within10At === null ? null : timing.within10At - timing.joinAt,
    errorMs: heard().error === null ? null : heard().error * 1000, landingMs: heard().landing * 1000,
    runStepMs: { faster: heard().runSteps.faster * 1000, slower: heard().runSteps.slower * 1000 }, stats: { ...heard().stats, frames: sync.stats.frames },
    pictureErrorMs: split && sync.error !== null ? sync.error * 1000 : null, soundCurrentTime: split ? sound.currentTime : null,
    rttMs: clock.estimate ? clock.estimate.minDelay * 1000 : null, currentTime: video.currentTime, paused: video.paused,
    rate: video.playbackRate, timelineRate: sync.timeline?.rate ?? null, output: audioOutput, me: welcome?.you.id ?? null, participants: participants.map((p) => p.name),
    item, source: mediaSource, hiddenTimes, problem: $("problem").hidden ? null : $("problem").textContent,
  }),
  trace: () => heard().trace,
};

function begin() {
  $("party-name").textContent = party ? `Tandem · ${party}` : "Tandem";
  if (!party || !key) {
    status("");
    problem("This link has no party key. Open the whole link the host shared (the part after # is the key).");
    return;
  }
  // The media credential, as a cookie only the party's media path receives (a <video> sends no headers).
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `tandem-media=${mediaToken(key, party)}; Path=/party/${encodeURIComponent(party)}/media; SameSite=Strict${secure}`;
  if (fingerprint) {
    const hex = fingerprintHex(fingerprint);
    if (hex) { $("fingerprint-hex").textContent = hex; $("fingerprint").hidden = false; }
  }
  $("name").value = fragment.get("name") ?? localStorage.getItem("tandem-name") ?? "";
  $("join").hidden = false;
  status("enter your name to join");
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("name").value.trim().slice(0, 64);
    if (!name) return;
    localStorage.setItem("tandem-name", name);
    join(name);
  });
}

function join(name) {
  timing.joinAt = performance.now();
  $("join").hidden = true;
  status("connecting…");
  measureOutput();
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const machine = new ConnectionMachine({ party, key, name });
  connection = new PartyConnection(machine, `${scheme}//${location.host}/party/${encodeURIComponent(party)}`, {
    welcomed, message, notice: toast,
    lost: () => { pings?.stop(); status("reconnecting…"); },
    ended: (reason) => { pings?.stop(); video.pause(); status("not connected"); problem(reason); },
    redirect: (node) => {
      // The party lives on another node of the cluster (NodeAddress: host, port, fingerprint): its page
      // there, with the same key and that node's certificate to compare. The name goes along (another
      // origin has its own storage); the guest joins there with one click, which also lets it play sound.
      const host = String(node.host).includes(":") ? `[${node.host}]` : String(node.host);
      const hash = new URLSearchParams(location.hash.slice(1));
      if (node.fingerprint) hash.set("fp", node.fingerprint); else hash.delete("fp");
      hash.set("name", name);
      location.replace(`${location.protocol}//${host}:${Number(node.port)}/p/${encodeURIComponent(party)}#${hash}`);
    },
  });
  connection.start();
  window.addEventListener("pagehide", () => connection?.leave());
}

function welcomed(w) {
  welcome = w;
  participants = w.participants;
  renderPeople(participants, w.you.id);
  $("stage").hidden = false;
  $("side").hidden = false;
  $("chat").replaceChildren();
  for (const line of w.chat ?? []) appendChat(line.from, line.text);
  setupItems(w.config.items);
  status(`connected as ${w.you.name} · syncing…`);
  clock.reset();  // measured anew, as the native member does: a restarted server has another clock
  pings = new PingLoop(clock, (id, t0) => connection.send({ type: "timePing", id, t0 }));
  pings.start();
  timeline(w.timeline);
  controls.update();
}

function message(msg) {
  switch (msg.type) {
    case "timePong":
      if (pings?.pong(msg) && !clock.isBursting) for (const s of syncs()) if (s.phase === "idle") s.clockReady();
      break;
    case "timeline": timeline(msg); break;
    case "joined": participants = [...participants.filter((p) => p.id !== msg.id), msg]; toast(`${msg.name} joined`); people(); break;
    case "left": participants = participants.filter((p) => p.id !== msg.participant.id); toast(`${msg.participant.name} ${msg.reason}`); people(); break;
    case "participants": participants = msg.participants; people(); break;
    case "presence": participants = participants.map((p) => (p.id === msg.id ? msg : p)); people(); break;
    case "hostChanged":
      participants = participants.map((p) => ({ ...p, role: p.id === msg.id ? "host" : "participant" }));
      if (welcome && msg.id === welcome.you.id) welcome.you.role = "host";
      toast(`${msg.name} is the host now`);
      people();
      controls.update();
      break;
    case "chatMessage": appendChat(msg.from, msg.text); break;
    case "refused": toast(msg.reason); break;
    case "itemURL": newLink(msg); break;
  }
}

/** The host's new link for a URL item (its old one expired): the item playing opens it where the party is. */
function newLink(change) {
  const it = welcome?.config.items[change.item];
  if (!it?.url || (it.url === change.url && it.audioURL === change.audioURL)) return;
  it.url = change.url;
  if (change.audioURL) it.audioURL = change.audioURL; else delete it.audioURL;
  toast(`${it.title}: the host found a new link for it`);
  if (change.item !== item || !sync.timeline) return;
  item = null;
  timeline({ ...sync.timeline, reason: undefined });
}

function people() { renderPeople(participants, welcome?.you.id); }

function setupItems(items) {
  const select = $("items");
  select.replaceChildren(...items.map((it, i) => { const o = document.createElement("option"); o.value = i; o.textContent = it.title; return o; }));
  select.hidden = items.length < 2;
}

function timeline(t) {
  const changed = t.item !== item;
  if (changed) openItem(t.item);
  if (itemProblem) return sendStatus();
  for (const s of syncs()) s.apply(t, changed);
  if (t.reason) toast(t.reason);
  controls.update();
}

function openItem(index) {
  item = index;
  mse?.stop();
  mse = null;
  mediaSource = null;
  closeSound();
  const it = welcome.config.items[index];
  $("items").value = String(index);
  const verdict = playability(it, (type) => video.canPlayType(type), "MediaSource" in window);
  itemProblem = null;
  problem(null);
  if (verdict.ok) {
    split = Boolean(verdict.split);
    mediaSource = split ? "split" : "direct";
    video.src = source(party, index, it);
    if (split) sound.src = it.audioURL;
  } else if (verdict.convert) {
    // The host remuxes it: attached at once, so the party's first seek is kept by the element.
    mediaSource = "remux";
    const player = new MsePlayer(video, party, index, { problem: (reason) => { if (mse === player) unplayable(`${verdict.reason}; ${reason}`); } });
    mse = player;
    player.attach();
  } else {
    unplayable(verdict.reason);
  }
}

/** The item cannot play here: the line says why and what to do instead. */
function unplayable(reason) {
  itemProblem = `${reason}. Join with the Tandem app instead: tandem join LINK (the link with tandem://)`;
  problem(itemProblem);
  mse?.stop();
  mse = null;
  mediaSource = null;
  closeSound();
  video.removeAttribute("src");
  video.load();
  sendStatus();
}

/** No separate sound (another item, or none playable): its sync stops and its element is emptied. */
function closeSound() {
  if (!split) return;
  split = false;
  soundSync.stop();
  sound.removeAttribute("src");
  sound.load();
}

// The element could not load or decode what it was given (a refused credential, a file it cannot read
// after all): the item is unavailable here, said in one line, and the party does not wait for this page.
const MEDIA_ERRORS = { 1: "loading was aborted", 2: "a network error", 3: "a decoding error", 4: "the format is not supported" };
function mediaFailed(element, what) {
  if (!element.error || item < 0 || itemProblem) return;
  const title = welcome?.config.items[item]?.title ?? "this item";
  itemProblem = `the browser could not play ${title}${what}: ${MEDIA_ERRORS[element.error.code] ?? "an error"}` +
    `${element.error.message ? ` (${element.error.message})` : ""}. Join with the Tandem app instead: tandem join LINK (the link with tandem://)`;
  problem(itemProblem);
  sendStatus();
}
video.addEventListener("error", () => mediaFailed(video, split ? "'s picture" : ""));
sound.addEventListener("error", () => { if (split) mediaFailed(sound, "'s sound"); });

function sendStatus() {
  if (!connection || !welcome) return;
  let state = "syncing";
  if (itemProblem) state = "unavailable";
  else if (isBuffering()) state = "stalled";
  else if (isReady()) state = "ready";
  if (state === "ready" && timing.readyAt === null) timing.readyAt = performance.now();
  const message = { type: "status", epoch: sync.appliedEpoch, state, source: "browser" };
  if (heard().error !== null) message.skewMs = heard().error * 1000;
  if (clock.estimate) { message.rttMs = clock.estimate.minDelay * 1000; message.offsetUncertaintyMs = clock.estimate.uncertainty * 1000; }
  if (itemProblem) message.problem = itemProblem.slice(0, 200);
  if (isBuffering()) message.buffering = true;
  if (audioOutput) message.output = audioOutput;
  connection.send(message);
  if (state !== lastState) {
    lastState = state;
    const you = welcome.you.name;
    status({ ready: `${you} · in sync`, syncing: `${you} · syncing…`, stalled: `${you} · buffering…`, unavailable: `${you} · can't play this item` }[state]);
  }
}

/** The delay of the sound output, from an AudioContext on the same device (made on the Join click). */
function measureOutput() {
  try {
    const context = new AudioContext();
    const read = () => {
      const seconds = (context.baseLatency ?? 0) + (context.outputLatency ?? 0);
      audioOutput = { driver: "browser", delayMs: Math.round(seconds * 1000 * 10) / 10, renderedMs: 0,
        baseMs: (context.baseLatency ?? 0) * 1000, outputMs: (context.outputLatency ?? 0) * 1000 };
    };
    read();
    setTimeout(() => { read(); context.close(); }, 1000);
  } catch {
    audioOutput = null;
  }
}

const controls = new Controls({ send: (message) => connection?.send(message), welcome: () => welcome }, sync, [video, sound]);
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (text && connection?.send({ type: "chat", text: text.slice(0, 2000) })) $("chat-input").value = "";
});

setInterval(() => { for (const s of syncs()) s.tick(); }, MEASURE_INTERVAL * 1000);
setInterval(() => {
  const position = sync.target();
  const duration = welcome?.config.items[item]?.identity?.duration || video.duration;
  if (position !== null) {
    $("time").textContent = `${formatTime(position)} / ${formatTime(duration)}`;
    if (document.activeElement !== $("seek")) { $("seek").max = String(duration || 1); $("seek").value = String(position); }
  }
}, 100);
setInterval(sendStatus, STATUS_INTERVAL * 1000);
let hiddenTimes = 0;
document.addEventListener("visibilitychange", () => {
  if (document.hidden) hiddenTimes += 1;
  else for (const s of syncs()) s.shown();
});

begin();

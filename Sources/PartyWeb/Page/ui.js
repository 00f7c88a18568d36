// The page's DOM: lists, chat, toasts and lines. Text only ever goes in through textContent.

export const $ = (id) => document.getElementById(id);

/** How long a toast stays. */
export const TOAST_SECONDS = 4;

export function toast(text) {
  const node = document.createElement("div");
  node.className = "toast";
  node.textContent = text;
  $("toasts").append(node);
  setTimeout(() => node.remove(), TOAST_SECONDS * 1000);
}

export function status(text) { $("status").textContent = text; }

/** A problem that stops the page (a wrong key, an unplayable item, the party's end): one clear line. */
export function problem(text) {
  const node = $("problem");
  node.textContent = text ?? "";
  node.hidden = !text;
}

/** "1:02:03" or "2:03". */
export function formatTime(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.floor(seconds % 60), m = Math.floor(seconds / 60) % 60, h = Math.floor(seconds / 3600);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** What a participant is doing, as the native lists say it (Presence.description). */
export function presenceText(presence) {
  if (!presence) return "joining";
  const source = presence.source ? ` (${presence.source})` : "";
  switch (presence.state) {
    case "watching": return `watching${source}`;
    case "syncing": return presence.buffering ? "buffering" : `syncing${source}`;
    case "stalled": return presence.buffering ? "buffering" : "stalled";
    case "unavailable": return `can't play: ${presence.problem ?? "unknown reason"}`;
    default: return presence.state;
  }
}

export function renderPeople(participants, me) {
  const list = $("people");
  list.replaceChildren(...participants.map((p) => {
    const item = document.createElement("li");
    item.dataset.id = p.id;
    const name = document.createElement("span");
    name.textContent = p.name + (p.id === me ? " (you)" : "");
    const role = document.createElement("span");
    role.className = "role";
    role.textContent = p.role === "host" ? " host" : "";
    const presence = document.createElement("div");
    presence.className = "presence";
    presence.textContent = presenceText(p.presence);
    item.append(name, role, presence);
    return item;
  }));
}

export function appendChat(from, text) {
  const log = $("chat");
  const item = document.createElement("li");
  const who = document.createElement("span");
  who.className = "from";
  who.textContent = from + ": ";
  item.append(who, document.createTextNode(text));
  log.append(item);
  while (log.children.length > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** A link's fingerprint (base64url SHA-256) as browsers' certificate viewers show it: hex pairs. */
export function fingerprintHex(fingerprint) {
  const base64 = fingerprint.replace(/-/g, "+").replace(/_/g, "/") + "=";
  try {
    return Array.from(atob(base64), (c) => c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()).join(" ");
  } catch {
    return null;
  }
}

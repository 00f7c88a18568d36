// Whether this browser can play an item, decided from the item's codecs (MediaIdentity.streams),
// never from "no error": Chromium plays an AC-3 track silently and an HEVC file as sound only,
// without an error.

/** Codec names as FFmpeg gives them → a codecs string for canPlayType. */
const VIDEO_CODECS = { h264: "avc1.640028", vp8: "vp8", vp9: "vp09.00.10.08", av1: "av01.0.05M.08", hevc: "hvc1.1.6.L93.B0", theora: "theora" };
const AUDIO_CODECS = { aac: "mp4a.40.2", mp3: "mp3", opus: "opus", vorbis: "vorbis", flac: "flac", ac3: "ac-3", eac3: "ec-3" };

/** Container MIME type by file name. */
export function containerType(title) {
  const extension = (title.split(".").pop() || "").toLowerCase();
  return { mp4: "video/mp4", m4v: "video/mp4", m4a: "audio/mp4", mov: "video/mp4", webm: "video/webm", mkv: "video/webm",
    ogg: "video/ogg", ogv: "video/ogg", opus: "audio/ogg", mp3: "audio/mpeg", flac: "audio/flac", wav: "audio/wav" }[extension] ?? null;
}

/** The kind and codec of each stream: "video h264 640x360" → { kind: "video", codec: "h264" }. */
export function streams(identity) {
  return (identity?.streams ?? []).map((s) => { const [kind, codec] = s.split(" "); return { kind, codec }; });
}

/**
 * Whether `item` (a MediaItem) plays here, through `canPlay(type)` (the element's canPlayType):
 * `{ ok: true }` or `{ ok: false, reason }` naming what does not play.
 */
export function playability(item, canPlay) {
  const type = containerType(item.url ?? item.title);
  const all = streams(item.identity);
  const video = all.find((s) => s.kind === "video");
  const audio = all.find((s) => s.kind === "audio");
  if (item.url && /\.m3u8(\?|$)/i.test(item.url) && !canPlay("application/vnd.apple.mpegurl")) {
    return { ok: false, reason: "this browser does not play HLS streams" };
  }
  if (!type) return { ok: false, reason: `this browser cannot open ${item.title}'s container` };
  const check = (s, table) => {
    const codec = table[s.codec];
    if (!codec) return false;
    return ["probably", "maybe"].includes(canPlay(`${type}; codecs="${codec}"`)) ||
      ["probably", "maybe"].includes(canPlay(`video/mp4; codecs="${codec}"`));
  };
  if (video && !check(video, VIDEO_CODECS)) return { ok: false, reason: `this browser does not decode ${video.codec.toUpperCase()} video` };
  if (audio && !check(audio, AUDIO_CODECS)) return { ok: false, reason: `this browser does not decode ${audio.codec.toUpperCase()} sound` };
  if (!video && !audio && all.length) return { ok: false, reason: "the item has no video or sound this page can play" };
  return { ok: true };
}

/** Where the page reads an item: the party's own media path, or the item's URL. */
export function source(party, index, item) {
  return item.url ?? `/party/${encodeURIComponent(party)}/media/${index}`;
}

// Whether this browser can play an item, decided from the item's codecs (MediaIdentity.streams),
// never from "no error": Chromium plays an AC-3 track silently and an HEVC file as sound only,
// without an error. The host's WebMediaPlan decides by the same rules (one table tests both:
// Tests/PartyWebTests/js/playability.json).

/** Codec names as FFmpeg gives them → a codecs string for canPlayType. */
const VIDEO_CODECS = { h264: "avc1.640028", vp8: "vp8", vp9: "vp09.00.10.08", av1: "av01.0.05M.08", hevc: "hvc1.1.6.L93.B0", theora: "theora" };
const AUDIO_CODECS = { aac: "mp4a.40.2", mp3: "mp3", opus: "opus", vorbis: "vorbis", flac: "flac", ac3: "ac-3", eac3: "ec-3", pcm_s16le: "1" };
/** Pictures the host remuxes into fragmented MP4 (never re-encoded); any sound it makes AAC. */
const REMUXED_VIDEO = new Set(["h264", "vp9", "av1"]);
/** Picture codecs of cover art (MP3, FLAC, M4A): not the item's video. */
const COVER_ART = new Set(["mjpeg", "png", "bmp", "gif", "webp", "tiff"]);

/** Container MIME type by file name, for the containers browsers open themselves. */
export function containerType(title) {
  const extension = (title.split(".").pop() || "").toLowerCase();
  return { mp4: "video/mp4", m4v: "video/mp4", m4a: "audio/mp4", webm: "video/webm", ogg: "video/ogg", ogv: "video/ogg",
    opus: "audio/ogg", mp3: "audio/mpeg", flac: "audio/flac", wav: "audio/wav" }[extension] ?? null;
}

/** Where a URL item's codecs come in when its link names no file type (a video site's link from yt-dlp,
 * `…/videoplayback?…`; a stream endpoint): H.264, AAC and MP3 in MP4, VP8, VP9, Vorbis and Opus in WebM
 * (AV1 in either; MP4 first). What a page then cannot load or decode the element says, as for any link. */
const MP4_CODECS = new Set(["h264", "av1", "aac", "mp3", "flac", "ac3", "eac3", "hevc"]);
const WEBM_CODECS = new Set(["vp8", "vp9", "av1", "vorbis", "opus"]);

/** The container type of a URL item: its path's file type (the query and fragment aside), else the one
 * its streams' codecs come in (null when they fit none). */
export function urlContainerType(url, all) {
  let path = url;
  try { path = new URL(url).pathname; } catch { /* not absolute: taken as a path */ }
  const file = path.split("/").pop() ?? "";
  if (/\.[A-Za-z0-9]+$/.test(file)) return containerType(file);
  const codecs = all.filter((s) => !COVER_ART.has(s.codec)).map((s) => s.codec);
  if (codecs.length && codecs.every((c) => MP4_CODECS.has(c))) return "video/mp4";
  if (codecs.length && codecs.every((c) => WEBM_CODECS.has(c))) return "video/webm";
  return null;
}

/** The kind and codec of each stream: "video h264 640x360" → { kind: "video", codec: "h264" }. */
export function streams(identity) {
  return (identity?.streams ?? []).map((s) => { const [kind, codec] = s.split(" "); return { kind, codec }; });
}

/**
 * Whether `item` (a MediaItem) plays here, through `canPlay(type)` (the element's canPlayType):
 * `{ ok: true }` as it is; `{ ok: false, convert: true, reason }` when the host can make it playable
 * (its container or sound is what does not play: the page asks for the remux, and shows `reason`
 * if that fails); `{ ok: false, reason }` naming what does not play, when nothing can be done.
 * `mse`: whether the page has Media Source Extensions.
 */
export function playability(item, canPlay, mse = true) {
  const all = streams(item.identity);
  const video = all.find((s) => s.kind === "video" && !COVER_ART.has(s.codec));
  const audio = all.find((s) => s.kind === "audio");
  if (item.url && /\.m3u8(\?|$)/i.test(item.url) && !canPlay("application/vnd.apple.mpegurl")) {
    return { ok: false, reason: "this browser does not play HLS streams" };
  }
  if (!video && !audio) return { ok: false, reason: "the item has no video or sound this page can play" };
  const yes = (type) => ["probably", "maybe"].includes(canPlay(type));
  const plays = (s, table, type) => Boolean(table[s.codec]) && yes(`${type}; codecs="${table[s.codec]}"`);
  if (item.audioURL) return splitPlayability(item, video, audio, plays);
  const type = item.url ? urlContainerType(item.url, all) : containerType(item.title);
  let reason = null;
  if (!type) reason = `this browser cannot open ${item.title}'s container`;
  else if (video && !plays(video, VIDEO_CODECS, type)) reason = `this browser does not decode ${video.codec.toUpperCase()} video`;
  else if (audio && !plays(audio, AUDIO_CODECS, type)) reason = `this browser does not decode ${audio.codec.toUpperCase()} sound`;
  if (!reason) return { ok: true };
  if (video && !(REMUXED_VIDEO.has(video.codec) && plays(video, VIDEO_CODECS, "video/mp4"))) {
    const name = video.codec.toUpperCase();
    const elsewhere = plays(video, VIDEO_CODECS, "video/webm") || plays(video, VIDEO_CODECS, "video/mp4");
    return { ok: false, reason: elsewhere ? `this browser cannot play ${name} video from ${item.title}'s container` : `this browser does not decode ${name} video` };
  }
  // The party converts only the files it serves, and only for a page with Media Source Extensions.
  if (item.url) return { ok: false, reason };
  if (!mse) return { ok: false, reason: `${reason}, and has no Media Source Extensions to play it converted` };
  return { ok: false, convert: true, reason };
}

/**
 * A web page's separate picture and sound formats (`item.url` and `item.audioURL`, one clock): the picture
 * in the <video>, the sound in an <audio> beside it, each on the party's timeline. `{ ok: true, split: true }`
 * when both play here, else what does not.
 */
function splitPlayability(item, video, audio, plays) {
  if (!video || !audio) return { ok: false, reason: "the item's separate picture and sound were not both found" };
  const pictureType = urlContainerType(item.url, [video]);
  const soundType = urlContainerType(item.audioURL, [audio]);
  if (!pictureType || !soundType) return { ok: false, reason: `this browser cannot open ${item.title}'s container` };
  if (!plays(video, VIDEO_CODECS, pictureType)) return { ok: false, reason: `this browser does not decode ${video.codec.toUpperCase()} video` };
  if (!plays(audio, AUDIO_CODECS, soundType)) return { ok: false, reason: `this browser does not decode ${audio.codec.toUpperCase()} sound` };
  return { ok: true, split: true };
}

/** Where the page reads an item: the party's own media path, or the item's URL. */
export function source(party, index, item) {
  return item.url ?? `/party/${encodeURIComponent(party)}/media/${index}`;
}

/** Where the page reads what the host makes of an item a browser cannot open as it is (docs/protocol.md). */
export function webPath(party, index, name) {
  return `/party/${encodeURIComponent(party)}/media/${index}/web/${name}`;
}

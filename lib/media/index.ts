/**
 * The audio steps of speech recognition, streaming from end to end (memory stays flat whatever the
 * length of the recording):
 *
 *   import { withTempDir, downloadAudioUrl, probeMedia, assertHasAudio, assertDuration, convertForAsr } from "@/lib/media";
 *
 *   await withTempDir("asr", async (dir, files) => {
 *     const src = await downloadAudioUrl(url, dir, { outbound, maxBytes, signal });   // or downloadPlatformAudio
 *     const probe = await probeMedia(src.path, { signal });
 *     assertHasAudio(probe);
 *     assertDuration(probe, maxSeconds);
 *     const asr = await convertForAsr(src.path, files.path("asr"), { signal, durationSeconds: probe.durationSeconds, maxSeconds });
 *     await files.remove(src.path);
 *     return recognise(asr.path);
 *   }, { signal });
 *
 * Settings are options; nothing here reads environment variables.
 */
export {
  formatBytes,
  formatDuration,
  isMediaError,
  MediaError,
  type MediaErrorCode,
  type MediaErrorOptions,
} from "./errors";
export {
  removeStaleTempDirs,
  TEMP_DIR_PREFIX,
  TempFiles,
  withTempDir,
  type StaleSweepOptions,
  type TempDirOptions,
} from "./temp";
export { SNIFF_BYTES, sniffMediaType } from "./magic";
export {
  downloadAudioUrl,
  downloadPlatformAudio,
  isAcceptedContentType,
  mediaTypeOf,
  platformAudioArgs,
  type DownloadAudioUrlOptions,
  type DownloadedFile,
  type PlatformAudioFile,
  type PlatformAudioOptions,
} from "./download";
export {
  assertDuration,
  assertHasAudio,
  parseFfprobeJson,
  probeMedia,
  type ProbeOptions,
  type ProbeResult,
} from "./probe";
export {
  buildConvertArgs,
  convertForAsr,
  detectAsrCodec,
  type AsrCodec,
  type ConvertOptions,
  type ConvertResult,
} from "./convert";
export { INPUT_DEMUXERS, INPUT_GUARD_ARGS } from "./tools";

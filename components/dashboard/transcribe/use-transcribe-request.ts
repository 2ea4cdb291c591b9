"use client";

import { useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  postTranscriptRequest,
  SUBSCRIPTION_KEY,
  transcriptKey,
  TRANSCRIPTIONS_KEY,
  type TranscribeResult,
} from "@/lib/browser/transcripts";
import { ApiRequestError } from "@/lib/browser/api";
import { putFile, signUpload, uploadContentType, type SignedUpload, type UploadProgress } from "@/lib/browser/uploads";

export type Submission = { vocabulary?: string[] } & (
  | { kind: "link"; url: string; lang: string }
  | { kind: "file"; file: File; lang: string }
);
export type UploadState = { phase: "signing" | "uploading" | "starting"; name: string } & UploadProgress;

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/**
 * The request behind the Transcribe form: a link is asked for at once; a file is signed, PUT (its progress
 * in `upload`, cancellable with `cancelUpload`) and then asked for. `onQueued` hears of a job started.
 */
export function useTranscribeRequest(onQueued: (jobId: string, submission: Submission) => void) {
  const queryClient = useQueryClient();
  const [upload, setUpload] = useState<UploadState | null>(null);
  const uploadAbort = useRef<AbortController | null>(null);

  const transcribe = useMutation({
    mutationFn: async (submission: Submission): Promise<TranscribeResult> => {
      const { vocabulary } = submission;
      if (submission.kind === "link")
        return postTranscriptRequest({ url: submission.url, lang: submission.lang, vocabulary });
      const { file: chosen } = submission;
      const controller = new AbortController();
      uploadAbort.current = controller;
      const contentType = uploadContentType(chosen);
      setUpload({ phase: "signing", name: chosen.name, loaded: 0, total: chosen.size });
      let signed: SignedUpload;
      try {
        signed = await signUpload(chosen.name, contentType);
        setUpload({ phase: "uploading", name: chosen.name, loaded: 0, total: chosen.size });
        await putFile(signed.upload_url, chosen, contentType, {
          signal: controller.signal,
          onProgress: (progress) => setUpload((state) => (state ? { ...state, ...progress } : state)),
        });
      } catch (error) {
        // Refusals (415 not audio or video, 413 too large, …) say so before the API's reason.
        if (error instanceof ApiRequestError && error.status >= 400) {
          throw new ApiRequestError(error.status, `This file cannot be uploaded: ${error.message}`, error.code);
        }
        throw error;
      }
      uploadAbort.current = null;
      setUpload({ phase: "starting", name: chosen.name, loaded: chosen.size, total: chosen.size });
      return postTranscriptRequest({ upload: signed.object_path, lang: submission.lang, vocabulary });
    },
    onSuccess: (result, submission) => {
      if (result.kind === "transcript")
        queryClient.setQueryData(transcriptKey(result.transcript.id, "json"), result.transcript);
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSCRIPTIONS_KEY });
      if (result.kind === "queued") onQueued(result.jobId, submission);
    },
    onSettled: () => {
      uploadAbort.current = null;
      setUpload(null);
    },
  });

  return { transcribe, upload, cancelUpload: () => uploadAbort.current?.abort() };
}

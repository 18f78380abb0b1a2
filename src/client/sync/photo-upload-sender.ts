import { Upload, type DetailedError } from 'tus-js-client';
import type { PhotoRow } from '../db/photo-rows';

/** A photo upload that ended without the BFF holding every byte. */
export class PhotoUploadError extends Error {
  constructor(
    /** The BFF's HTTP status, or null when no answer came (network, timeout). */
    readonly status: number | null,
    message: string,
    /** Retry-After of a 429 or 503, in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export type SendPhotoOptions = {
  /** Where tus creates uploads: `/api/uploads` on the BFF. */
  endpoint: string;
  /** Sent with every request (X-CSRF, the owner header; the session cookie in node tests). */
  headers: Record<string, string>;
  /** Resume here (the BFF's upload of this photo), if known. */
  uploadUrl: string | null;
  /** The record's server id: the queue sends nothing before it has one. */
  record: number;
  onUploadUrl: (url: string) => void;
  onProgress: (sent: number, total: number) => void;
  signal: AbortSignal;
  /** What tus-js-client reads the blob as (a Buffer under Node, in tests); default the Blob. */
  readSource?: (blob: Blob) => Promise<unknown>;
};

/**
 * Sends one photo with tus (tus-js-client): creates the upload, or resumes it at the BFF's
 * offset (HEAD) when `uploadUrl` is known, so a photo cut at any byte is never sent from the
 * start again. Retries are the queue's (backoff between runs), not tus-js-client's own.
 */
export async function sendPhoto(photo: PhotoRow, options: SendPhotoOptions): Promise<void> {
  if (!photo.blob) throw new PhotoUploadError(null, 'The photo is no longer on this tablet');
  const source = options.readSource ? await options.readSource(photo.blob) : photo.blob;
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(source as Blob, {
      endpoint: options.endpoint,
      uploadUrl: options.uploadUrl,
      headers: options.headers,
      metadata: {
        entity: photo.entity,
        record: String(options.record),
        filename: photo.filename,
        content_type: photo.contentType,
        ...(photo.takenAt ? { taken_at: photo.takenAt } : {}),
        photo_id: photo.id,
      },
      uploadSize: photo.bytes,
      // The queue keeps the upload URL in Dexie with the photo; tus-js-client's own store of
      // fingerprints (localStorage) would outlive a signed-out user's data.
      storeFingerprintForResuming: false,
      retryDelays: null,
      // Chunks bound what a cut loses in the browser (XHR bodies are not streamed) and give
      // the sync bar its progress.
      chunkSize: 512 * 1024,
      onUploadUrlAvailable: () => {
        if (upload.url) options.onUploadUrl(upload.url);
      },
      onProgress: (sent, total) => options.onProgress(sent, total),
      onSuccess: () => resolve(),
      onError: (err) => reject(toUploadError(err)),
    });
    options.signal.addEventListener('abort', () => {
      void upload.abort();
      reject(new PhotoUploadError(null, 'Stopped'));
    });
    upload.start();
  });
}

function toUploadError(err: Error | DetailedError): PhotoUploadError {
  const res = 'originalResponse' in err ? err.originalResponse : null;
  if (!res) return new PhotoUploadError(null, 'No connection to the server');
  const status = res.getStatus();
  let message = `The server answered ${status}`;
  try {
    const body = JSON.parse(res.getBody()) as { error?: { message?: string } };
    if (body.error?.message) message = body.error.message;
  } catch {
    // Not the contract's body (a proxy's page): the status says it.
  }
  const retryAfter = Number(res.getHeader('Retry-After'));
  return new PhotoUploadError(
    status,
    message,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
  );
}

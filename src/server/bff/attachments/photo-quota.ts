/**
 * Photo storage per agency when TRAPLINE_PHOTO_QUOTA_MB is not set: 2 GiB, about 4,000 photos
 * as the app sends them (2048 px JPEG, ~0.5 MB), a season of a busy district's field photos.
 */
export const DEFAULT_PHOTO_QUOTA_MB = 2048;
export const DEFAULT_PHOTO_QUOTA_BYTES = DEFAULT_PHOTO_QUOTA_MB * 1024 * 1024;

import { z } from 'zod';

/**
 * A UTF-16 surrogate without its partner. JSON may carry one (`"\ud800"`), but it is no character:
 * stored as UTF-8 it silently becomes U+FFFD, and PostgreSQL's jsonb refuses it outright. Text
 * a person typed never holds one, so a body that does is refused (422 naming the field) by the
 * forms, the records service and the BFF alike, with or without an Idempotency-Key.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const LONE_SURROGATE_MESSAGE =
  'This text holds a broken character (an unpaired UTF-16 surrogate); retype it';

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The text with every lone surrogate replaced by U+FFFD, as UTF-8 would store it. */
export function wellFormed(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
}

/** A text field: any string a person can type, and nothing that is not one. */
export const text = () =>
  z.string().refine((v) => !hasLoneSurrogate(v), { message: LONE_SURROGATE_MESSAGE });

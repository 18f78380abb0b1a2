/**
 * Whether a path spells an RFC 3986 unreserved character (letter, digit, `-` `.` `_` `~`) in
 * percent-encoding. No client encodes one (RFC 3986 §2.3), and the router decodes it before
 * matching: `/%761/agency` is `/v1/agency` to the route, but not to a check made on the raw path.
 * Both servers refuse such a path (400) before anything reads it.
 */
export function hasEncodedUnreserved(path: string): boolean {
  return /%(3[0-9]|[46][1-9a-f]|[57][0-9a]|2d|2e|5f|7e)/i.test(path);
}

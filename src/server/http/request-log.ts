/**
 * A URL as a log line may show it: the path, and the query's parameter names with every value
 * replaced. Query values are the browser's (searches, filters) and may carry anything a user typed
 * or a token a client put there, so none of them reaches the logs.
 */
function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? '[redacted]' : `${pair.slice(0, eq)}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * What a request log line shows, in both servers: method, the URL with its query values
 * redacted, the client address; never headers (Authorization, Cookie).
 */
export function serializeRequest(req: {
  method: string;
  url: string;
  ip?: string;
  socket?: { remoteAddress?: string };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
  };
}

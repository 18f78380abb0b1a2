import { request as undiciRequest } from 'undici';

export type HttpAnswer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = Record<string, unknown>>() => T;
};

export type HttpOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH';
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
};

/**
 * Real HTTP from the "browser" to a server: every header exactly as given (undici's request, not
 * fetch, so Origin / Sec-Fetch-Site / Cookie are under the test's control).
 */
export async function http(url: string, options: HttpOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const res = await undiciRequest(url, { method: options.method ?? 'GET', headers, body });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

/** The `name=value` part of a Set-Cookie header, for sending back as Cookie. */
export function cookieFrom(answer: HttpAnswer, name = '__Host-trapline'): string | undefined {
  const raw = answer.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const line = list.find((c) => c.startsWith(`${name}=`));
  return line?.split(';', 1)[0];
}

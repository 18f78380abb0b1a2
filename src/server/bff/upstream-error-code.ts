import { parseJson } from './parse-json';

/**
 * The `error.code` of an upstream answer, or undefined when its body is not the contract's error
 * body (§2). Upstream bodies are untrusted: a hosted service may answer HTML, or an error without
 * a message, so only a string code is read and nothing else is required of the body.
 */
export function upstreamErrorCode(res: { body: string }): string | undefined {
  const body = parseJson(res.body) as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : undefined;
}

import { ERROR_CODES, errorBody } from '#shared/schemas/error';
import type { FuzzRequest } from './endpoints';
import type { Answer } from './send-request';

const KNOWN_CODES = new Set<string>(ERROR_CODES);

function header(a: Answer, name: string): string | undefined {
  const v = a.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * What the contract says every answer looks like (contract §2, §4), as a list of problems (empty
 * when the answer keeps it): an error is JSON `{error: {code, message, fields?}}` with a known
 * code, a 422 lists its fields, a 405 says what is allowed, a 429 says when to come back; a
 * list is `{rows, count}` and a record has `id` first. A HEAD answer has no body to check.
 */
export function contractProblems(req: FuzzRequest, a: Answer): string[] {
  if (req.method === 'HEAD' || a.status === 204) return [];
  const problems: string[] = [];
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    if (a.status >= 400 || req.expect !== 'any') {
      return [`body is not JSON: ${JSON.stringify(a.text.slice(0, 120))}`];
    }
    return [];
  }
  if (a.status >= 400) {
    const parsed = errorBody.safeParse(body);
    if (!parsed.success) return [`error body off the contract: ${a.text.slice(0, 160)}`];
    const { code, fields } = parsed.data.error;
    if (!KNOWN_CODES.has(code)) problems.push(`unknown error code ${code}`);
    if (!/^application\/json/.test(header(a, 'content-type') ?? ''))
      problems.push(`error content-type ${header(a, 'content-type')}`);
    if (a.status === 422 && (!fields || fields.length === 0)) problems.push('422 without fields');
    if (a.status === 405 && !header(a, 'allow')) problems.push('405 without Allow');
    if (a.status === 429 && !header(a, 'retry-after')) problems.push('429 without Retry-After');
    if (a.status >= 500 && /select |insert |update |\bat .*\.ts:/i.test(a.text))
      problems.push('5xx body leaks SQL or a stack');
    return problems;
  }
  if (a.status >= 200 && a.status < 300) {
    const rec = body as Record<string, unknown> | null;
    if (req.expect === 'list') {
      if (!rec || !Array.isArray(rec.rows) || typeof rec.count !== 'number')
        problems.push('list answer is not {rows, count}');
      else if (rec.rows.some((r) => Object.keys(r as object)[0] !== 'id'))
        problems.push('a list row does not start with id');
    } else if (req.expect === 'record') {
      if (!rec || typeof rec !== 'object' || Object.keys(rec)[0] !== 'id')
        problems.push('record answer does not start with id');
    }
  }
  return problems;
}

import { historyList, type HistoryList } from '#shared/schemas/history';
import { NetworkError, request } from '../../lib/http';
import type { ServerError } from '../../lib/i18n';

/** Why a history could not be shown: each says what to do in the panel. */
export class HistoryError extends Error {
  constructor(
    readonly reason: 'offline' | 'reauth' | 'not_found' | 'forbidden' | 'server',
    message: string,
    /** The server's error (forbidden, server), said by its code where shown. */
    readonly server: ServerError | null = null,
    /** The answer came but could not be read. */
    readonly unreadable = false,
  ) {
    super(message);
  }
}

/** One page of `GET /api/v1/history` (contract §11); `query` is the query string without `?`. */
export async function fetchHistory(query: string, signal?: AbortSignal): Promise<HistoryList> {
  let res;
  try {
    res = await request<unknown>(`/api/v1/history?${query}`, { signal });
  } catch (e) {
    if (e instanceof NetworkError) {
      throw new HistoryError(
        'offline',
        'The history is kept on the server, which could not be reached.',
      );
    }
    throw e;
  }
  if (res.ok) {
    const parsed = historyList.safeParse(res.body);
    if (parsed.success) return parsed.data;
    throw new HistoryError(
      'server',
      'The server answered with a history this app cannot read.',
      null,
      true,
    );
  }
  if (res.status === 401) {
    throw new HistoryError('reauth', 'Your sign-in has expired: sign in again to see the history.');
  }
  if (res.status === 404) {
    throw new HistoryError('not_found', 'The server has no history for this record.');
  }
  const server = { code: res.error.code, message: res.error.message };
  if (res.status === 403) throw new HistoryError('forbidden', res.error.message, server);
  throw new HistoryError('server', `The history could not be read (${res.error.message}).`, server);
}

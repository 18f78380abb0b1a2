/**
 * A client of the records service itself (not the BFF), used by tests to check what really
 * reached the server and to act as another technician.
 */
export type ListResult<T = Record<string, unknown>> = { rows: T[]; count: number };

export type NewServerSite = { code: string; name: string; lat: number; lon: number };

export type RecordsApi = {
  token: string;
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body: unknown): Promise<{ status: number; body: T }>;
  put<T = unknown>(path: string, body: unknown): Promise<{ status: number; body: T }>;
  /** Creates a site as another technician would: a GPS point (coordinate precision 1). */
  createSite(site: NewServerSite): Promise<{ status: number; body: unknown }>;
  sites(query?: string): Promise<ListResult>;
  collections(query?: string): Promise<ListResult>;
  pools(query?: string): Promise<ListResult>;
  poolTests(query?: string): Promise<ListResult>;
};

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

export async function recordsLogin(
  recordsUrl: string,
  username: string,
  password: string,
): Promise<string> {
  const res = await fetch(`${recordsUrl}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await json(res)) as { token?: string };
  if (!res.ok || !body?.token)
    throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** Signs in to the records service as `username` (demo-manager by default). */
export async function recordsApi(
  recordsUrl: string,
  password: string,
  username = 'demo-manager',
): Promise<RecordsApi> {
  const token = await recordsLogin(recordsUrl, username, password);
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${recordsUrl}${path}`, { headers });
    const body = await json(res);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body as T;
  };
  // Newest first, big pages: tests look for what they just created among the seeded records.
  const list =
    (path: string) =>
    (query = '') =>
      get<ListResult>(`${path}?pageSize=1000&sort=-id${query ? `&${query}` : ''}`);
  const send = async <T>(method: 'POST' | 'PUT', path: string, body: unknown) => {
    const res = await fetch(`${recordsUrl}${path}`, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await json(res)) as T };
  };
  return {
    token,
    get,
    post: <T>(path: string, body: unknown) => send<T>('POST', path, body),
    put: <T>(path: string, body: unknown) => send<T>('PUT', path, body),
    createSite: ({ code, name, lat, lon }: NewServerSite) =>
      send('POST', '/v1/site', {
        code,
        name,
        coordinate_precision: 1,
        shape: { type: 'Point', coordinates: [lon, lat] },
      }),
    sites: list('/v1/site'),
    collections: list('/v1/arthropod/collection'),
    pools: list('/v1/arthropod/pool'),
    poolTests: list('/v1/arthropod/pool/test'),
  };
}

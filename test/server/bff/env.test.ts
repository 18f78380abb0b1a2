import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../../src/server/bff/env';
import { EnvError } from '../../../src/server/env-error';

describe('parseEnv', () => {
  it('gives the documented defaults for an empty environment', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      RECORDS_PORT: 8081,
      TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      TRAPLINE_DATA_DIR: './.trapline',
      TRAPLINE_UPSTREAM_CONNECT_TIMEOUT_MS: 5000,
      TRAPLINE_UPSTREAM_TIMEOUT_MS: 30000,
    });
    expect(env.UPSTREAM_URL).toBeUndefined();
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('reads numbers and URLs, and treats empty values as unset', () => {
    const env = parseEnv({
      PORT: '0',
      UPSTREAM_URL: 'https://records.example.org/api',
      DATABASE_URL: '',
      TRAPLINE_UPSTREAM_TIMEOUT_MS: '1500',
    });
    expect(env.PORT).toBe(0);
    expect(env.UPSTREAM_URL).toBe('https://records.example.org/api');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TRAPLINE_UPSTREAM_TIMEOUT_MS).toBe(1500);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      parseEnv({
        PORT: 'eighty',
        UPSTREAM_URL: 'ftp://x',
        TILE_URL: 'http://tiles/{z}',
        TRAPLINE_UPSTREAM_TIMEOUT_MS: '-1',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems.join('\n');
    for (const name of ['PORT', 'UPSTREAM_URL', 'TILE_URL', 'TRAPLINE_UPSTREAM_TIMEOUT_MS'])
      expect(problems).toContain(name);
    expect((error as EnvError).message).toMatch(/^Invalid environment:\n {2}- /);
  });

  it('takes an http TILE_URL only for a tile server on this machine', () => {
    for (const local of [
      'http://127.0.0.1:8090/{z}/{x}/{y}.png',
      'http://localhost/tiles/{z}/{x}/{y}.png',
    ])
      expect(parseEnv({ TILE_URL: local }).TILE_URL).toBe(local);
    // This machine by its IPv6 address: refused at start, naming the way that works, rather than
    // a map whose tiles the browser's security policy refuses (no CSP source can name [::1]).
    expect(() => parseEnv({ TILE_URL: 'http://[::1]:8090/{z}/{x}/{y}.png' })).toThrow(
      /http:\/\/localhost.*not \[::1\]/,
    );
    for (const remote of [
      'http://tiles.example.org/{z}/{x}/{y}.png',
      'http://127.0.0.1.example.org/{z}/{x}/{y}.png',
      'http://localhost.example.org/{z}/{x}/{y}.png',
    ])
      expect(() => parseEnv({ TILE_URL: remote }), remote).toThrow(/TILE_URL must be an https/);
  });

  it('takes the map’s credit line as plain text', () => {
    expect(parseEnv({}).TILE_ATTRIBUTION).toBeUndefined();
    expect(
      parseEnv({ TILE_ATTRIBUTION: ' © MapTiler © OpenStreetMap contributors ' }),
    ).toMatchObject({
      TILE_ATTRIBUTION: '© MapTiler © OpenStreetMap contributors',
    });
  });

  it('needs TLS_CERT and TLS_KEY together', () => {
    expect(() => parseEnv({ TLS_CERT: '/etc/cert.pem' })).toThrow(/TLS_CERT and TLS_KEY/);
  });
});

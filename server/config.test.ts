import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  exposureWarning,
  parseConnectSrc,
  parseGatewayUrl,
  personLimitsFromEnv,
  serverConfigFromEnv,
} from './config.ts';
import { upstreamUrl } from './proxy.ts';
import { DEFAULT_RELAY_SETTINGS } from './relay/relay.ts';

describe('serverConfigFromEnv', () => {
  it('defaults to 127.0.0.1:8080, dist/ and the simulator', () => {
    expect(serverConfigFromEnv({})).toEqual({
      host: '127.0.0.1',
      port: 8080,
      distDir: resolve('dist'),
      proxy: undefined,
      connectSrc: [],
      allowedHosts: [],
      limits: DEFAULT_LIMITS,
      relay: DEFAULT_RELAY_SETTINGS,
    });
  });

  it('reads HOST, PORT, the gateway, the key and the opt-ins', () => {
    const config = serverConfigFromEnv({
      HOST: '0.0.0.0',
      PORT: '9000',
      HOPBASE_BASE_URL: 'https://gateway.example.com/v1/',
      HOPBASE_API_KEY: 'sk-1',
      HOPBASE_PROXY_ALLOW_NO_ORIGIN: '1',
      HOPBASE_CONNECT_SRC: 'https://a.example.com, https://*.b.example:8443/',
      HOPBASE_ALLOWED_HOSTS: 'Chat.Example.com',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      connectSrc: ['https://a.example.com', 'https://*.b.example:8443'],
      allowedHosts: ['chat.example.com'],
      proxy: { apiKey: 'sk-1', allowNoOrigin: true, maxBodyBytes: DEFAULT_MAX_BODY_BYTES },
    });
    expect(config.proxy?.target.display).toBe('https://gateway.example.com/v1');
    expect(
      serverConfigFromEnv({ HOPBASE_BASE_URL: 'http://g', HOPBASE_PROXY_ALLOW_NO_ORIGIN: '0' }).proxy,
    ).toMatchObject({ allowNoOrigin: false });
  });

  it('refuses a bad port', () => {
    expect(() => serverConfigFromEnv({ PORT: 'eighty' })).toThrow(ConfigError);
  });

  it('refuses credentials in the URL together with a key, without repeating either', () => {
    const run = () =>
      serverConfigFromEnv({
        HOPBASE_BASE_URL: 'https://u:secret-pass@g.example/v1',
        HOPBASE_API_KEY: 'sk-key-1',
      });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/Keep one/);
    try {
      run();
    } catch (error) {
      expect(String(error)).not.toMatch(/secret-pass|sk-key-1/);
    }
  });
});

describe('per-person limits (team mode)', () => {
  it('reads both; unset or 0 is no limit', () => {
    expect(
      personLimitsFromEnv(
        { HOPBASE_USER_REQUESTS_PER_MINUTE: ' 20 ', HOPBASE_USER_TOKENS_PER_DAY: '1000000' },
        true,
      ),
    ).toEqual({ requestsPerMinute: 20, tokensPerDay: 1_000_000 });
    expect(personLimitsFromEnv({ HOPBASE_USER_TOKENS_PER_DAY: '0' }, true)).toEqual({
      requestsPerMinute: 0,
      tokensPerDay: 0,
    });
  });

  it('refuses what is not a whole number, naming the variable', () => {
    for (const value of ['-1', '2.5', 'ten', '1e3x'])
      expect(() => personLimitsFromEnv({ HOPBASE_USER_REQUESTS_PER_MINUTE: value }, true)).toThrow(
        /HOPBASE_USER_REQUESTS_PER_MINUTE must be a whole number/,
      );
    expect(() => personLimitsFromEnv({ HOPBASE_USER_TOKENS_PER_DAY: '-5' }, true)).toThrow(ConfigError);
  });

  it('refuses to start with a limit no one would be held to (no team mode)', () => {
    expect(() => personLimitsFromEnv({ HOPBASE_USER_TOKENS_PER_DAY: '1000' }, false)).toThrow(
      /HOPBASE_USER_TOKENS_PER_DAY limits each signed-in person: set HOPBASE_AUTH/,
    );
    expect(personLimitsFromEnv({ HOPBASE_USER_REQUESTS_PER_MINUTE: '0' }, false)).toEqual({
      requestsPerMinute: 0,
      tokensPerDay: 0,
    });
  });
});

describe('limits from the environment', () => {
  it('reads every limit, and keeps the defaults for the rest', () => {
    const config = serverConfigFromEnv({
      HOPBASE_BASE_URL: 'https://g.example/v1',
      HOPBASE_MAX_REQUESTS: '500',
      HOPBASE_MAX_REQUESTS_PER_CLIENT: '4',
      HOPBASE_HEADERS_TIMEOUT_MS: '5000',
      HOPBASE_REQUEST_TIMEOUT_MS: '60000',
      HOPBASE_MAX_BODY_BYTES: '1048576',
      HOPBASE_BODY_IDLE_TIMEOUT_MS: '3000',
    });
    expect(config.limits).toEqual({
      maxRequests: 500,
      maxRequestsPerClient: 4,
      headersTimeoutMs: 5000,
      requestTimeoutMs: 60000,
    });
    expect(config.proxy).toMatchObject({ maxBodyBytes: 1048576, bodyIdleTimeoutMs: 3000 });
    expect(serverConfigFromEnv({ HOPBASE_MAX_REQUESTS: '9' }).limits).toEqual({
      ...DEFAULT_LIMITS,
      maxRequests: 9,
    });
  });

  it.each([
    ['HOPBASE_MAX_REQUESTS', '0'],
    ['HOPBASE_MAX_REQUESTS_PER_CLIENT', 'lots'],
    ['HOPBASE_HEADERS_TIMEOUT_MS', '1.5'],
    ['HOPBASE_REQUEST_TIMEOUT_MS', '-1'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => serverConfigFromEnv({ [name]: value })).toThrow(
      new RegExp(`^${name} must be a whole number`),
    );
  });
});

describe('the warning at start', () => {
  it.each(['0.0.0.0', '::', '192.168.1.10', 'chat.example.com'])(
    'warns when HOST=%s (reachable from elsewhere) and HOPBASE_AUTH is unset',
    (host) => {
      const warning = exposureWarning(serverConfigFromEnv({ HOST: host }), {});
      expect(warning).toContain('not authentication');
      expect(warning).toContain(host);
    },
  );

  it.each(['127.0.0.1', '127.0.0.2', '::1', 'localhost', '[::1]'])('is silent on loopback (%s)', (host) => {
    expect(exposureWarning(serverConfigFromEnv({ HOST: host }), {})).toBeUndefined();
  });

  it('is silent once authentication is configured', () => {
    expect(
      exposureWarning(serverConfigFromEnv({ HOST: '0.0.0.0' }), { HOPBASE_AUTH: 'oidc' }),
    ).toBeUndefined();
  });
});

describe('parseGatewayUrl', () => {
  it('splits out the user, password and query, and shows neither', () => {
    const target = parseGatewayUrl(
      'https://gw-user:p%40ss-word@gateway.example.com:8443/base/v1?token=abc123xyz',
    );
    expect(target.display).toBe('https://gateway.example.com:8443/base/v1');
    expect(target.url.href).toBe('https://gateway.example.com:8443/base/v1?token=abc123xyz');
    expect(target.basicAuth).toBe(`Basic ${Buffer.from('gw-user:p@ss-word').toString('base64')}`);
    expect(target.secrets).toEqual(expect.arrayContaining(['p%40ss-word', 'p@ss-word', 'abc123xyz']));
  });

  it.each(['not a url', 'ftp://gateway.example.com', 'https://u:hunter22@/v1'])(
    'refuses %j without repeating it',
    (value) => {
      expect(() => parseGatewayUrl(value)).toThrow(ConfigError);
      try {
        parseGatewayUrl(value);
      } catch (error) {
        expect(String(error)).not.toContain('hunter22');
      }
    },
  );
});

describe('upstreamUrl', () => {
  it('joins the base (with or without /v1), its query and the request’s', () => {
    const base = parseGatewayUrl('https://g.example/v1?key=k1').url;
    expect(upstreamUrl(base, '/v1/models', '').href).toBe('https://g.example/v1/models?key=k1');
    expect(
      upstreamUrl(parseGatewayUrl('https://g.example/api/').url, '/v1/messages', '?beta=true').href,
    ).toBe('https://g.example/api/v1/messages?beta=true');
  });
});

describe('parseConnectSrc', () => {
  it('accepts origins, wildcard subdomains and ws(s)', () => {
    expect(parseConnectSrc('https://gw.example.com  http://127.0.0.1:8787,wss://*.example.com')).toEqual([
      'https://gw.example.com',
      'http://127.0.0.1:8787',
      'wss://*.example.com',
    ]);
    expect(parseConnectSrc(undefined)).toEqual([]);
  });

  it.each([
    "https://gw.example.com; script-src 'unsafe-inline'",
    "'unsafe-inline'",
    '*',
    'https:',
    'https://gw.example.com/v1',
    'https://user@gw.example.com',
    'javascript:alert(1)',
  ])('refuses %j: it would not be one origin', (value) => {
    expect(() => parseConnectSrc(value)).toThrow(ConfigError);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { authConfigFromEnv, isTrustedProxy } from './config.ts';
import { identityFromHeader } from './header.ts';
import { normalEmail, safeReturnPath } from './identity.ts';

const oidcEnv = {
  HOPBASE_AUTH: 'oidc',
  HOPBASE_PUBLIC_URL: 'https://chat.example.com',
  HOPBASE_OIDC_ISSUER: 'https://id.example.com/realms/team',
  HOPBASE_OIDC_CLIENT_ID: 'hopbase',
  HOPBASE_OIDC_CLIENT_SECRET: 's3cret-value',
};

describe('team mode settings', () => {
  it('is single-person mode without HOPBASE_AUTH', () => {
    expect(authConfigFromEnv({})).toEqual({ mode: 'none' });
    expect(authConfigFromEnv({ HOPBASE_AUTH: ' ' })).toEqual({ mode: 'none' });
  });

  it('reads OIDC settings, the callback under the public URL', () => {
    const config = authConfigFromEnv({ ...oidcEnv, HOPBASE_ADMINS: 'Ann@Example.com, bo@example.com' });
    expect(config.mode === 'oidc' && config.oidc.redirectUri.href).toBe(
      'https://chat.example.com/auth/callback',
    );
    expect(config.mode === 'oidc' && [...config.admins]).toEqual(['ann@example.com', 'bo@example.com']);
  });

  it.each([
    ['an unknown mode', { HOPBASE_AUTH: 'saml' }, /HOPBASE_AUTH must be oidc, header or unset/],
    ['OIDC without a public URL', { ...oidcEnv, HOPBASE_PUBLIC_URL: '' }, /HOPBASE_PUBLIC_URL is required/],
    [
      'OIDC without a secret',
      { ...oidcEnv, HOPBASE_OIDC_CLIENT_SECRET: '' },
      /HOPBASE_OIDC_CLIENT_SECRET is required/,
    ],
    [
      'a plain-http issuer elsewhere',
      { ...oidcEnv, HOPBASE_OIDC_ISSUER: 'http://id.example.com' },
      /must use https/,
    ],
    ['an issuer with a query', { ...oidcEnv, HOPBASE_OIDC_ISSUER: 'https://id.example.com/?x=1' }, /query/],
    ['a bad admin claim', { ...oidcEnv, HOPBASE_OIDC_ADMIN_CLAIM: 'groups' }, /claim=value/],
    ['a bad session length', { ...oidcEnv, HOPBASE_SESSION_DAYS: '-1' }, /HOPBASE_SESSION_DAYS/],
    ['a bad header name', { HOPBASE_AUTH: 'header', HOPBASE_AUTH_HEADER: 'x email' }, /HOPBASE_AUTH_HEADER/],
    [
      'a bad proxy address',
      { HOPBASE_AUTH: 'header', HOPBASE_TRUSTED_PROXIES: '10.0.0.0/33' },
      /"10.0.0.0\/33"/,
    ],
  ])('refuses %s with a message naming the variable', (_name, env, message) => {
    expect(() => authConfigFromEnv(env)).toThrow(ConfigError);
    expect(() => authConfigFromEnv(env)).toThrow(message);
  });

  it('never repeats the client secret in a message', () => {
    const env = { ...oidcEnv, HOPBASE_OIDC_ISSUER: 'not a url s3cret-value' };
    expect(() => authConfigFromEnv(env)).toThrow(/HOPBASE_OIDC_ISSUER/);
    expect(() => authConfigFromEnv(env)).not.toThrow(/s3cret/);
  });
});

describe('the person behind a reverse proxy', () => {
  const config = authConfigFromEnv({ HOPBASE_AUTH: 'header', HOPBASE_ADMINS: 'boss@example.com' });
  if (config.mode !== 'header') throw new Error('header mode expected');
  const { header, admins } = config;
  const ask = (peer: string | undefined, value: string | string[] | undefined) =>
    identityFromHeader(header, admins, peer, { 'x-forwarded-email': value });

  it('is the header’s email, from a trusted proxy only (loopback by default)', () => {
    expect(ask('127.0.0.1', 'Ann@Example.com')).toEqual({
      issuer: 'header',
      subject: 'ann@example.com',
      email: 'ann@example.com',
      name: null,
      admin: false,
    });
    expect(ask('::ffff:127.0.0.1', 'boss@example.com')?.admin).toBe(true);
    expect(ask('::1', 'ann@example.com')?.email).toBe('ann@example.com');
    for (const peer of ['10.0.0.5', '::ffff:10.0.0.5', '2001:db8::1', undefined, 'not-an-ip'])
      expect(ask(peer, 'ann@example.com')).toBeNull();
  });

  it('names nobody when the header is missing, doubled or not an email', () => {
    for (const value of [undefined, '', 'ann', 'a@b, c@d', ['a@b.c', 'd@e.f'], 'a b@c.d', '@x.y', 'x@'])
      expect(ask('127.0.0.1', value)).toBeNull();
  });

  it('trusts the networks it is given', () => {
    const custom = authConfigFromEnv({
      HOPBASE_AUTH: 'header',
      HOPBASE_TRUSTED_PROXIES: '10.1.0.0/16 fd00::/8',
    });
    if (custom.mode !== 'header') throw new Error('header mode expected');
    expect(isTrustedProxy(custom.header, '10.1.2.3')).toBe(true);
    expect(isTrustedProxy(custom.header, 'fd00::5')).toBe(true);
    expect(isTrustedProxy(custom.header, '127.0.0.1')).toBe(false);
    expect(isTrustedProxy(custom.header, '10.2.0.1')).toBe(false);
  });
});

describe('emails and return paths', () => {
  it.each([
    [' Ann@Example.COM ', 'ann@example.com'],
    ['a@b', 'a@b'],
    ['two@@at', null],
    ['sp ace@x.y', null],
    ['tab\t@x.y', null],
    [`${'a'.repeat(251)}@x.y`, null],
    [42, null],
  ])('normalEmail(%j) → %j', (value, expected) => expect(normalEmail(value)).toBe(expected));

  it.each([
    ['/c/conv_1', '/c/conv_1'],
    ['/', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['/c/x\nSet-Cookie: a=b', '/'],
    ['c/conv_1', '/'],
    [undefined, '/'],
  ])('safeReturnPath(%j) → %j', (value, expected) => expect(safeReturnPath(value)).toBe(expected));
});

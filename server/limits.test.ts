import { describe, expect, it } from 'vitest';
import { clientKey, createConcurrencyLimit } from './limits.ts';

describe('clientKey', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it('puts every address of one IPv6 /64 under one key, and another /64 under another', () => {
    const keys = ['2001:db8:a:b::1', '2001:db8:a:b:dead:beef:0:1', '2001:db8:a:b:ffff:ffff:ffff:ffff'].map(
      clientKey,
    );
    expect(new Set(keys).size).toBe(1);
    expect(clientKey('2001:db8:a:c::1')).not.toBe(keys[0]);
  });
});

describe('createConcurrencyLimit', () => {
  it('refuses past the per-client cap, then past the total, and gives slots back once', () => {
    const limit = createConcurrencyLimit(3, 2);
    const a1 = limit.enter('a');
    const a2 = limit.enter('a');
    expect(limit.enter('a')).toBe('client');
    const b1 = limit.enter('b');
    expect(limit.enter('c')).toBe('total');
    expect(limit.inFlight).toBe(3);
    if (typeof a1 === 'string' || typeof a2 === 'string' || typeof b1 === 'string')
      throw new Error('refused');
    a1.release();
    a1.release();
    expect(limit.inFlight).toBe(2);
    expect(typeof limit.enter('c')).toBe('object');
    expect(limit.enter('a')).toBe('total');
  });

  it('takes keys that would be special on a plain object', () => {
    const limit = createConcurrencyLimit(10, 1);
    for (const key of ['__proto__', 'constructor', 'toString']) {
      expect(typeof limit.enter(key)).toBe('object');
      expect(limit.enter(key)).toBe('client');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { createFormatters } from './format.ts';
import type { Locale } from './locales.ts';

const now = Date.UTC(2025, 9, 2, 15, 30);
const utc = (locale: Locale) => createFormatters(locale, 'UTC');

describe('createFormatters', () => {
  it.each([
    ['en', '12,345', '42.5'],
    ['es', '12.345', '42,5'],
    ['zh-CN', '12,345', '42.5'],
    ['ja', '12,345', '42.5'],
  ] as const)('%s: counts and figures', (locale, count, rate) => {
    const f = utc(locale);
    expect(f.count(12_345)).toBe(count);
    expect(f.decimal(42.46, 1)).toBe(rate);
  });

  it.each([
    ['en', ['3 s', '3.2 s', '850 ms', '24 s', '1 min 5 s', '2 min']],
    ['es', ['3 s', '3,2 s', '850 ms', '24 s', '1 min 5 s', '2 min']],
    ['zh-CN', ['3秒', '3.2秒', '850毫秒', '24秒', '1分钟5秒', '2分钟']],
    ['ja', ['3 秒', '3.2 秒', '850 ms', '24 秒', '1 分 5 秒', '2 分']],
  ] as const)('%s: seconds and durations', (locale, expected) => {
    const f = utc(locale);
    expect([
      f.seconds(3),
      f.seconds(3.2),
      f.duration(850),
      f.duration(24_000),
      f.duration(65_000),
      f.duration(120_000),
    ]).toEqual(expected);
  });

  it.each([
    ['en', ['$0.0123', '$0.00042', '$0.10', '$0.00', '$1,234.50']],
    ['es', ['0,0123 US$', '0,00042 US$', '0,10 US$', '0,00 US$', '1234,50 US$']],
    ['zh-CN', ['US$0.0123', 'US$0.00042', 'US$0.10', 'US$0.00', 'US$1,234.50']],
    ['ja', ['$0.0123', '$0.00042', '$0.10', '$0.00', '$1,234.50']],
  ] as const)('%s: dollars, small amounts to three significant digits', (locale, expected) => {
    const f = utc(locale);
    const shown = [0.012345, 0.00042, 0.1, 0, 1234.5].map((n) => f.usd(n).replace(/\u00a0/g, ' '));
    expect(shown).toEqual(expected);
  });

  it('rounds a duration to the unit it is shown in', () => {
    const f = utc('en');
    expect(f.duration(3_240)).toBe('3.2 s');
    expect(f.duration(12_600)).toBe('13 s');
    expect(f.duration(59_960)).toBe('1 min');
  });

  it.each([
    ['en', ['0 bytes', '1 byte', '999 bytes', '12.5 kB', '1.5 MB', '250 MB', '2.1 GB']],
    ['es', ['0 bytes', '1 byte', '999 bytes', '12,5 kB', '1,5 MB', '250 MB', '2,1 GB']],
    ['zh-CN', ['0字节', '1字节', '999字节', '12.5 kB', '1.5 MB', '250 MB', '2.1 GB']],
    ['ja', ['0 バイト', '1 バイト', '999 バイト', '12.5 KB', '1.5 MB', '250 MB', '2.1 GB']],
  ] as const)('%s: sizes in decimal units, as browsers report storage', (locale, expected) => {
    const f = utc(locale);
    expect([0, 1, 999, 12_500, 1_460_000, 250_000_000, 2_100_000_000].map(f.bytes)).toEqual(expected);
  });

  it.each([
    ['en', ['999 B', '2.5 kB', '12 kB', '3.75 MB', '15 MB']],
    ['es', ['999 B', '2,5 kB', '12 kB', '3,75 MB', '15 MB']],
    ['zh-CN', ['999 B', '2.5 kB', '12 kB', '3.75 MB', '15 MB']],
    ['ja', ['999 B', '2.5 KB', '12 KB', '3.75 MB', '15 MB']],
  ] as const)('%s: file sizes as file managers show them', (locale, expected) => {
    const f = utc(locale);
    expect([999, 2500, 12_345, 3_750_000, 15_000_000].map(f.fileSize)).toEqual(expected);
  });

  it.each([
    ['en', 'a, b and c'],
    ['es', 'a, b y c'],
    ['zh-CN', 'a、b和c'],
    ['ja', 'a、b、c'],
  ] as const)('%s: lists', (locale, expected) => {
    expect(utc(locale).list(['a', 'b', 'c'])).toBe(expected);
  });

  it.each([
    ['en', ['9:05 AM', 'yesterday', 'Mar 7', 'Mar 7, 2024']],
    ['es', ['9:05', 'ayer', '7 mar', '7 mar 2024']],
    ['zh-CN', ['9:05', '昨天', '3月7日', '2024年3月7日']],
    ['ja', ['9:05', '昨日', '3月7日', '2024/03/07']],
  ] as const)('%s: when, as the sidebar says it', (locale, expected) => {
    const f = utc(locale);
    expect([
      f.when(Date.UTC(2025, 9, 2, 9, 5), now),
      f.when(Date.UTC(2025, 9, 1, 23, 5), now),
      f.when(Date.UTC(2025, 2, 7), now),
      f.when(Date.UTC(2024, 2, 7), now),
    ]).toEqual(expected);
  });

  it.each([
    ['en', ['Mar 4, 2026', 'Mar 4\u2009–\u200910, 2026', 'Dec 30, 2025\u2009–\u2009Jan 5, 2026']],
    ['es', ['4 mar 2026', '4–10 mar 2026', '30 dic 2025\u2009–\u20095 ene 2026']],
    ['zh-CN', ['2026年3月4日', '2026/3/4 – 2026/3/10', '2025/12/30 – 2026/1/5']],
    ['ja', ['2026/03/04', '2026/03/04～2026/03/10', '2025/12/30～2026/01/05']],
  ] as const)('%s: days as the server counts them (UTC), and ranges of them', (locale, expected) => {
    // Honolulu is 10 hours behind UTC: a day read in the browser's zone would be the day before.
    const f = createFormatters(locale, 'Pacific/Honolulu');
    const days = [
      f.utcDay('2026-03-04'),
      f.utcDays('2026-03-04', '2026-03-10'),
      f.utcDays('2025-12-30', '2026-01-05'),
    ];
    expect(days).toEqual(expected);
  });

  it('counts days in the time zone it is given', () => {
    // 23:30 UTC on 1 October is 08:30 on 2 October in Tokyo, the same day as noon UTC on 2 October.
    const late = Date.UTC(2025, 9, 1, 23, 30);
    const noon = Date.UTC(2025, 9, 2, 12, 0);
    expect(createFormatters('en', 'Asia/Tokyo').when(late, noon)).toBe('8:30 AM');
    expect(createFormatters('en', 'UTC').when(late, noon)).toBe('yesterday');
  });
});

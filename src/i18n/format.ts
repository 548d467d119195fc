import type { Locale } from './locales.ts';

/**
 * Numbers, durations, sizes and dates in one locale's conventions, through `Intl`: each helper is a pure
 * function of its input (and of `now` for dates), made once per locale.
 */
export interface Formatters {
  /** A count: `12,345` (en), `12.345` (es), `12,345` (zh-CN, ja). */
  count(n: number): string;
  /** A figure with `digits` decimals: a rate of tokens per second, `42.5` / `42,5`. */
  decimal(n: number, digits: number): string;
  /** Whole or fractional seconds: `3 s`, `3,2 s`, `3.2秒`, `3.2 秒`. */
  seconds(seconds: number): string;
  /** A duration in milliseconds: `850 ms` below a second, `3.2 s` below a minute, then `1 min 5 s`. */
  duration(ms: number): string;
  /** A size in decimal units, as browsers report storage: `999 bytes`, `1.5 MB`. */
  bytes(n: number): string;
  /** A file's size as file managers show it: `512 B`, `2.5 kB`, `12 kB`, `3.75 MB` (`3,75 MB`). */
  fileSize(n: number): string;
  /** A list of items: `a, b and c`, `a, b y c`, `a、b和c`, `a、b、c`. */
  list(items: readonly string[]): string;
  /** When something last happened: the time today, "yesterday", the day this year, or the date. */
  when(epochMs: number, now: number): string;
  /** A day as the server counts days (`YYYY-MM-DD`, UTC), that day in any time zone: `Mar 4, 2026`. */
  utcDay(day: string): string;
  /** Two such days, both included, what they share said once: `Mar 4 – 10, 2026`, `4–10 mar 2026`. */
  utcDays(from: string, to: string): string;
  /**
   * Dollars: cents from $1 (`$12.35`, `12,35 US$`), below it two or three significant digits, so that a
   * small answer's cost still says something (`$0.0123`, `$0.00042`); nothing is `$0.00`.
   */
  usd(dollars: number): string;
}

/**
 * The app's English writes the SI symbols (`3 s`, `1 min 5 s`) where CLDR's short English units say
 * `sec`, and lists without the serial comma, as it always has.
 */
const englishSymbols: Readonly<Record<string, string>> = { sec: 's', secs: 's' };

/** How each language joins a minute and seconds: CLDR's narrow lists, except Japanese, spaced like its units. */
const durationJoin: Readonly<Record<Locale, Intl.ListFormatStyle>> = {
  en: 'narrow',
  es: 'narrow',
  'zh-CN': 'narrow',
  ja: 'short',
};

const byteUnits = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** Calendar days since 1970 of `epochMs` as `calendar` (numeric year, month and day) sees it. */
function dayNumber(epochMs: number, calendar: Intl.DateTimeFormat): number {
  const parts = calendar.formatToParts(epochMs);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day')) / 86_400_000;
}

/** `timeZone`: for tests; the browser's own zone otherwise. */
export function createFormatters(locale: Locale, timeZone?: string): Formatters {
  const counts = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const decimals = new Map<number, Intl.NumberFormat>();
  const unit = (name: string, digits: number, unitDisplay: 'short' | 'long' = 'short') => {
    const format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: name,
      unitDisplay,
      maximumFractionDigits: digits,
    });
    if (locale !== 'en') return (n: number) => format.format(n);
    return (n: number) =>
      format
        .formatToParts(n)
        .map((part) => (part.type === 'unit' ? (englishSymbols[part.value] ?? part.value) : part.value))
        .join('');
  };
  const wholeSeconds = unit('second', 0);
  const tenthsOfSeconds = unit('second', 1);
  const minutes = unit('minute', 0);
  const milliseconds = unit('millisecond', 0);
  const byteCount = unit('byte', 0, 'long');
  const largeBytes = byteUnits.map((name) => [unit(name, 0), unit(name, 1)] as const);
  const [wholeKilobytes, tenthsOfKilobytes] = largeBytes[0]!;
  const megabytes = unit('megabyte', 2);
  const joinDuration = new Intl.ListFormat(locale, { type: 'unit', style: durationJoin[locale] });
  const list = new Intl.ListFormat(locale === 'en' ? 'en-GB' : locale, { type: 'conjunction' });
  const cents = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
  const smallDollars = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumSignificantDigits: 2,
    maximumSignificantDigits: 3,
  });
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' });
  const dayThisYear = new Intl.DateTimeFormat(locale, { timeZone, month: 'short', day: 'numeric' });
  const date = new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium' });
  const utcDate = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'medium' });
  const utcMidnight = (day: string) => new Date(`${day}T00:00:00Z`);
  const relativeDay = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const year = new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' });
  const calendar = new Intl.DateTimeFormat('en', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  });

  return {
    count: (n) => counts.format(n),
    decimal(n, digits) {
      let format = decimals.get(digits);
      if (!format) {
        format = new Intl.NumberFormat(locale, {
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        });
        decimals.set(digits, format);
      }
      return format.format(n);
    },
    seconds: (s) => tenthsOfSeconds(s),
    duration(ms) {
      if (ms < 1000) return milliseconds(Math.round(ms));
      if (ms < 59_950) return ms < 10_000 ? tenthsOfSeconds(ms / 1000) : wholeSeconds(Math.round(ms / 1000));
      const total = Math.round(ms / 1000);
      const rest = total % 60;
      const parts = [minutes(Math.floor(total / 60))];
      if (rest > 0) parts.push(wholeSeconds(rest));
      return joinDuration.format(parts);
    },
    bytes(n) {
      if (n < 1000) return byteCount(n);
      let value = n / 1000;
      let index = 0;
      while (value >= 1000 && index < byteUnits.length - 1) {
        value /= 1000;
        index++;
      }
      const [whole, tenths] = largeBytes[index]!;
      return value >= 100 ? whole(value) : tenths(value);
    },
    fileSize(n) {
      if (n < 1000) return `${counts.format(n)} B`;
      if (n < 1_000_000) return n < 10_000 ? tenthsOfKilobytes(n / 1000) : wholeKilobytes(n / 1000);
      return megabytes(n / 1_000_000);
    },
    list: (items) => list.format(items),
    when(epochMs, now) {
      const days = dayNumber(now, calendar) - dayNumber(epochMs, calendar);
      if (days === 0) return time.format(epochMs);
      if (days === 1) return relativeDay.format(-1, 'day');
      return year.format(epochMs) === year.format(now) ? dayThisYear.format(epochMs) : date.format(epochMs);
    },
    utcDay: (day) => utcDate.format(utcMidnight(day)),
    utcDays: (from, to) => utcDate.formatRange(utcMidnight(from), utcMidnight(to)),
    usd: (dollars) => (dollars === 0 || Math.abs(dollars) >= 1 ? cents : smallDollars).format(dollars),
  };
}

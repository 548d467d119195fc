/** Builds plausible tool-call arguments from a tool's JSON Schema. */
type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strings chosen by property name, so a weather tool gets `"Paris"` and a search tool gets the question. */
const STRING_BY_NAME: [RegExp, string | null][] = [
  [/city|location|place|town|destination|address/i, 'Paris'],
  [/country/i, 'France'],
  [/unit/i, 'celsius'],
  [/lang/i, 'en'],
  [/e-?mail/i, 'ada@example.com'],
  [/url|link|href/i, 'https://example.com'],
  [/date/i, '2025-06-01'],
  [/time/i, '12:00'],
  [/query|search|question|prompt|text|topic|q$/i, null],
  [/name/i, 'Ada Lovelace'],
  [/id$/i, 'item_123'],
];

const STRING_BY_FORMAT: Record<string, string> = {
  date: '2025-06-01',
  'date-time': '2025-06-01T12:00:00Z',
  time: '12:00:00',
  email: 'ada@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

function sampleString(key: string, schema: Schema, hint: string): string {
  const format = typeof schema.format === 'string' ? STRING_BY_FORMAT[schema.format] : undefined;
  const byName = STRING_BY_NAME.find(([pattern]) => pattern.test(key));
  let value = format ?? (byName ? (byName[1] ?? hint) : hint);
  if (typeof schema.maxLength === 'number') value = value.slice(0, schema.maxLength);
  return value;
}

function sampleNumber(schema: Schema, preferred: number): number {
  let value = preferred;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number') value = Math.max(value, schema.exclusiveMinimum + 1);
  if (typeof schema.maximum === 'number') value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number') value = Math.min(value, schema.exclusiveMaximum - 1);
  return value;
}

function typeOf(schema: Schema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (typeof type === 'string') return type;
  return isSchema(schema.properties) ? 'object' : 'string';
}

/**
 * A value that satisfies `schema`: `const`, then the first `enum` value, then `default`, then a
 * sample by type. `hint` (the user's question) fills free-text strings.
 */
export function sampleFromSchema(schema: unknown, hint: string, key = ''): unknown {
  if (!isSchema(schema)) return hint;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(alternatives)) {
    const first = alternatives.find((alt) => !(isSchema(alt) && alt.type === 'null'));
    return sampleFromSchema(first, hint, key);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([name, sub]) => [name, sampleFromSchema(sub, hint, name)]),
      );
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => sampleFromSchema(schema.items, hint, key.replace(/s$/, '')));
    }
    case 'integer':
      return Math.round(sampleNumber(schema, 3));
    case 'number':
      return sampleNumber(schema, 21.5);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return sampleString(key, schema, hint);
  }
}

/** The phrase that makes a structured answer break its schema, so a client's check can be seen to fail. */
export const BREAK_SCHEMA = 'break the schema';

/** `sample` with its first field (or itself) of the wrong type: an answer that breaks its schema in one place. */
export function brokenSample(sample: unknown): unknown {
  const wrong = (value: unknown) => (typeof value === 'string' ? 42 : 'not what the schema says');
  if (!isSchema(sample)) return wrong(sample);
  const [first] = Object.keys(sample);
  return first === undefined ? wrong(sample) : { ...sample, [first]: wrong(sample[first]) };
}

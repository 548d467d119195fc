/**
 * JSON Schema draft 2020-12's meta-schema, its vocabularies (core, applicator, unevaluated, validation,
 * meta-data, format-annotation, content) in one document: the validator has no `$dynamicRef`, so each
 * `"$dynamicRef": "#meta"` of the published files is a plain `$ref` to the root here (the same rules for a
 * schema without dynamic anchors of its own, which a tool's parameters never need).
 */
const meta = { $ref: '#' };
const schemaArray = { type: 'array', minItems: 1, items: meta };
const nonNegativeInteger = { type: 'integer', minimum: 0 };
const stringArray = { type: 'array', items: { type: 'string' }, uniqueItems: true };
const simpleTypes = { enum: ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] };
const anchor = { type: 'string', pattern: '^[A-Za-z_][-A-Za-z0-9._]*$' };
const uriReference = { type: 'string', format: 'uri-reference' };
const schemaMap = { type: 'object', additionalProperties: meta };

export const metaSchema2020 = {
  type: ['object', 'boolean'],
  properties: {
    // core
    $id: { ...uriReference, pattern: '^[^#]*#?$' },
    $schema: { type: 'string', format: 'uri' },
    $ref: uriReference,
    $anchor: anchor,
    $dynamicRef: uriReference,
    $dynamicAnchor: anchor,
    $vocabulary: {
      type: 'object',
      propertyNames: { type: 'string', format: 'uri' },
      additionalProperties: { type: 'boolean' },
    },
    $comment: { type: 'string' },
    $defs: schemaMap,
    // applicator
    prefixItems: schemaArray,
    items: meta,
    contains: meta,
    additionalProperties: meta,
    properties: schemaMap,
    patternProperties: { ...schemaMap, propertyNames: { format: 'regex' } },
    dependentSchemas: schemaMap,
    propertyNames: meta,
    if: meta,
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword; this object is never awaited
    then: meta,
    else: meta,
    allOf: schemaArray,
    anyOf: schemaArray,
    oneOf: schemaArray,
    not: meta,
    // unevaluated
    unevaluatedItems: meta,
    unevaluatedProperties: meta,
    // validation
    type: {
      anyOf: [simpleTypes, { type: 'array', items: simpleTypes, minItems: 1, uniqueItems: true }],
    },
    enum: { type: 'array' },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    maximum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    minimum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    maxLength: nonNegativeInteger,
    minLength: nonNegativeInteger,
    pattern: { type: 'string', format: 'regex' },
    maxItems: nonNegativeInteger,
    minItems: nonNegativeInteger,
    uniqueItems: { type: 'boolean' },
    maxContains: nonNegativeInteger,
    minContains: nonNegativeInteger,
    maxProperties: nonNegativeInteger,
    minProperties: nonNegativeInteger,
    required: stringArray,
    dependentRequired: { type: 'object', additionalProperties: stringArray },
    // meta-data
    title: { type: 'string' },
    description: { type: 'string' },
    deprecated: { type: 'boolean' },
    readOnly: { type: 'boolean' },
    writeOnly: { type: 'boolean' },
    examples: { type: 'array' },
    // format-annotation
    format: { type: 'string' },
    // content
    contentEncoding: { type: 'string' },
    contentMediaType: { type: 'string' },
    contentSchema: meta,
  },
};

import * as v from 'valibot';
import { protocols } from '../../core/index.ts';
import { traceItem } from './recordSchemas.ts';
import { onlyFields } from './validation.ts';

/**
 * A JSON trace a person imports (`exportJsonTrace` writes them), as far as a replay trusts it: its events,
 * each a recorded item as a stored recording's are, and its protocol only when it is one of ours. Each
 * message is what the import form says.
 */

const notATrace = 'This JSON file is not a HopBase Chat trace (its "format" is not "hopbase-chat-trace").';

export const importedTraceFile = onlyFields(
  {
    format: v.literal('hopbase-chat-trace', notATrace),
    events: v.array(traceItem, 'This trace has no "events" list.'),
    protocol: v.fallback(v.nullable(v.picklist(protocols)), null),
  },
  notATrace,
);

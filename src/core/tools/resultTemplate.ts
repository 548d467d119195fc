import { parseToolArguments } from '../conversation.ts';

/**
 * A tool's result written from its template: each `{{name}}` becomes that argument of the call (text as
 * is, anything else as JSON); a name the call did not give becomes nothing.
 */
export function fillTemplate(template: string, argumentsText: string): string {
  const args = parseToolArguments(argumentsText);
  return template.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, name: string) => {
    const value = args[name];
    if (value === undefined) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** At most this many answers in a row are answered by templates alone; then the person decides. */
export const maxAutomaticRounds = 5;

/**
 * What the system prompt dialog says under its box: whether the text is the default for new chats (the
 * one in Settings) or this chat's own, and when it is sent.
 */
export function systemPromptNote(draft: string, defaultPrompt: string, started: boolean): string {
  const which =
    draft === defaultPrompt
      ? 'The default for new chats, as in Settings.'
      : 'This chat’s own: the default for new chats (in Settings) is different.';
  const when = started
    ? 'Sent with this chat’s next messages; earlier answers keep what they were sent with.'
    : 'This chat starts with it.';
  return `${which} ${when}`;
}

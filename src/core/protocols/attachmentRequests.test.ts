/**
 * Attachments in requests, per protocol: images as each API's own image part, text files as text headed by
 * their name. Every expected body is checked against the official SDK's create-params type with
 * `satisfies`: a misspelt or misplaced field fails to compile.
 */
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { type AttachmentContent, type ConversationMessage, textFileBlock } from '../conversation.ts';
import { buildRequest } from './index.ts';

/** A 1×1 transparent PNG. */
const png = {
  kind: 'image',
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
} as const satisfies AttachmentContent;
const notes = {
  kind: 'text',
  name: 'notes.md',
  text: '# Notes\n\nBuy milk.',
} as const satisfies AttachmentContent;

const withFiles: ConversationMessage[] = [
  { role: 'user', text: 'What is in these?', attachments: [png, notes] },
];
const notesBlock = 'File: notes.md\n```\n# Notes\n\nBuy milk.\n```';

describe('textFileBlock', () => {
  it('heads the text with its name and fences it', () => {
    expect(textFileBlock(notes.name, notes.text)).toBe(notesBlock);
  });

  it('fences with more backticks than any run inside, so the file cannot close the block', () => {
    const text = 'Example:\n````ts\nconst a = `x`;\n````';
    expect(textFileBlock('README.md', text)).toBe(`File: README.md\n\`\`\`\`\`\n${text}\n\`\`\`\`\``);
  });
});

describe('Chat Completions', () => {
  it('sends an image_url part with a data URL and the file as a text part, before the typed text', () => {
    const expected = {
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png.data}` } },
            { type: 'text', text: notesBlock },
            { type: 'text', text: 'What is in these?' },
          ],
        },
      ],
    } satisfies ChatCompletionCreateParamsStreaming;
    expect(buildRequest('chat', { model: 'gpt-4o', messages: withFiles }).body).toEqual(expected);
  });

  it('sends an image alone, without an empty text part', () => {
    const body = buildRequest('chat', {
      model: 'gpt-4o',
      messages: [{ role: 'user', text: '', attachments: [png] }],
    }).body;
    const expected = [
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.data}` } }],
      },
    ] satisfies ChatCompletionCreateParamsStreaming['messages'];
    expect(body.messages).toEqual(expected);
  });

  it('keeps plain text as a string when there are no attachments', () => {
    const body = buildRequest('chat', {
      model: 'gpt-4o',
      messages: [{ role: 'user', text: 'Hi', attachments: [] }],
    }).body;
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });
});

describe('Responses', () => {
  it('sends input_image with a data URL and input_text for the file, before the typed text', () => {
    const expected = {
      model: 'gpt-4o',
      stream: true,
      store: false,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: `data:image/png;base64,${png.data}`, detail: 'auto' },
            { type: 'input_text', text: notesBlock },
            { type: 'input_text', text: 'What is in these?' },
          ],
        },
      ],
    } satisfies ResponseCreateParamsStreaming;
    expect(buildRequest('responses', { model: 'gpt-4o', messages: withFiles }).body).toEqual(expected);
  });
});

describe('Anthropic Messages', () => {
  it('sends an image block with a base64 source and the file as a text block, before the typed text', () => {
    const expected = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      stream: true,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.data } },
            { type: 'text', text: notesBlock },
            { type: 'text', text: 'What is in these?' },
          ],
        },
      ],
    } satisfies MessageCreateParamsStreaming;
    expect(buildRequest('messages', { model: 'claude-sonnet-4-5', messages: withFiles }).body).toEqual(
      expected,
    );
  });

  it('keeps the files in their own user turn when a tool result comes before them', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'Weather?' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'toolu_1', content: 'sunny' },
      { role: 'user', text: 'And this?', attachments: [png] },
    ];
    const body = buildRequest('messages', { model: 'claude-sonnet-4-5', messages }).body;
    const expected = [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.data } },
          { type: 'text', text: 'And this?' },
        ],
      },
    ] satisfies MessageCreateParamsStreaming['messages'];
    expect(body.messages).toEqual(expected);
  });
});

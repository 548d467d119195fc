import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeReceived, readUserContent, shortenData } from './attachments.ts';
import { type RunningSimulator, startSimulator } from './server.ts';

// Images and files in all three protocols: what the simulated model says it received, and the log.
let sim: RunningSimulator;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 1, keepaliveMs: 20, stallMs: 5000, apiKey: undefined });
  openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: sim.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.simulator.clearRequests());

/** 12,000 bytes of "image" (the simulator reads the base64's length, not the picture). */
const imageData = Buffer.alloc(12_000, 7).toString('base64');
const dataUrl = `data:image/png;base64,${imageData}`;
/** 2,000 bytes of notes, as HopBase Chat sends a text file. */
const notes = `${'n'.repeat(1999)}\n`;
const notesBlock = `File: notes.md\n\`\`\`\n${notes}\n\`\`\``;
const seen = 'I see 1 image (image/png, 12 kB) and 1 file (notes.md, 2 kB).';

describe('readUserContent', () => {
  it('keeps plain text as it is', () => {
    expect(readUserContent('Hello')).toEqual({ text: 'Hello', received: [] });
  });

  it('reads each protocol’s image and file parts, and leaves file blocks out of the text', () => {
    const content = [
      { type: 'image_url', image_url: { url: dataUrl } },
      { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'AAAA' } },
      { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAAAA==' } },
      { type: 'input_file', filename: 'b.pdf', file_data: 'data:application/pdf;base64,AAA=' },
      { type: 'document', title: 'c.txt', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
      { type: 'text', text: notesBlock },
      { type: 'input_text', text: 'What are these?' },
    ];
    expect(readUserContent(content)).toEqual({
      text: 'What are these?',
      received: [
        { kind: 'image', mimeType: 'image/png', bytes: 12_000 },
        { kind: 'image', mimeType: 'a link', bytes: null },
        { kind: 'image', mimeType: 'image/webp', bytes: 3 },
        { kind: 'file', name: 'a.pdf', bytes: 4 },
        { kind: 'file', name: 'b.pdf', bytes: 2 },
        { kind: 'file', name: 'c.txt', bytes: 6 },
        { kind: 'file', name: 'notes.md', bytes: 2000 },
      ],
    });
  });

  it('takes a fence of any length, as long as it closes the block', () => {
    const block = 'File: x.md\n````\n```js\n1\n```\n````';
    expect(readUserContent([{ type: 'text', text: block }]).received).toEqual([
      { kind: 'file', name: 'x.md', bytes: 11 },
    ]);
    expect(readUserContent([{ type: 'text', text: 'File: x.md\n```\nopen' }]).received).toEqual([]);
  });
});

describe('describeReceived', () => {
  it('says nothing when nothing was attached', () => {
    expect(describeReceived([])).toBe('');
  });

  it('counts images and files, each with its type or name and size', () => {
    expect(
      describeReceived([
        { kind: 'image', mimeType: 'image/png', bytes: 512 },
        { kind: 'image', mimeType: 'a link', bytes: null },
        { kind: 'file', name: 'big.log', bytes: 2_500_000 },
      ]),
    ).toBe('I see 2 images (image/png, 512 B; a link) and 1 file (big.log, 2.5 MB).');
  });
});

describe('shortenData', () => {
  it('shortens image and file data to their start and length, and keeps everything else', () => {
    const body = {
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl } }] }],
    };
    expect(shortenData(body)).toEqual({
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'image_url',
              image_url: { url: `data:image/png;base64,${imageData.slice(0, 32)}…[16,000 chars]` },
            },
          ],
        },
      ],
    });
  });

  it('gives back the same object when there is no data to shorten', () => {
    const body = { messages: [{ role: 'user', content: 'x'.repeat(1000) }], url: 'https://example.com' };
    expect(shortenData(body)).toBe(body);
  });
});

describe('the simulated model says what it received', () => {
  it('Chat Completions through the openai SDK', async () => {
    const completion = await openai.chat.completions.create({
      model: 'sim-echo',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: dataUrl } },
            { type: 'text', text: notesBlock },
            { type: 'text', text: 'Describe these' },
          ],
        },
      ],
    });
    const text = completion.choices[0]?.message.content ?? '';
    expect(text.startsWith(`${seen}\n\n## Describe these`)).toBe(true);
    // Priced like an image, not like 16,000 characters of base64 plus 2 kB of text.
    expect(completion.usage?.prompt_tokens).toBeLessThan(1000);
  });

  it('Responses through the openai SDK, streaming', async () => {
    const stream = openai.responses.stream({
      model: 'sim-echo',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: dataUrl, detail: 'auto' },
            { type: 'input_text', text: notesBlock },
            { type: 'input_text', text: 'Describe these' },
          ],
        },
      ],
    });
    const response = await stream.finalResponse();
    expect(response.output_text.startsWith(seen)).toBe(true);
  });

  it('Anthropic Messages through the @anthropic-ai/sdk, streaming, a document block too', async () => {
    const message = await anthropic.messages
      .stream({
        model: 'sim-echo',
        max_tokens: 4096,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: imageData } },
              { type: 'text', text: notesBlock },
              {
                type: 'document',
                title: 'spec.txt',
                source: { type: 'text', media_type: 'text/plain', data: 'x'.repeat(3000) },
              },
              { type: 'text', text: 'Describe these' },
            ],
          },
        ],
      })
      .finalMessage();
    const first = message.content[0];
    expect(first?.type === 'text' && first.text).toMatch(
      /^I see 1 image \(image\/png, 12 kB\) and 2 files \(notes\.md, 2 kB; spec\.txt, 3 kB\)\.\n\n/,
    );
  });

  it('says nothing of the kind when a message has no attachments', async () => {
    const completion = await openai.chat.completions.create({
      model: 'sim-echo',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(completion.choices[0]?.message.content).not.toContain('I see');
  });
});

describe('the request log', () => {
  it('shows the parts with their data shortened, even for a body over the log’s limit', async () => {
    const big = Buffer.alloc(300_000, 1).toString('base64');
    await anthropic.messages.create({
      model: 'sim-echo',
      max_tokens: 64,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: big } },
            { type: 'text', text: 'Look' },
          ],
        },
      ],
    });
    const log = (await (await fetch(`${sim.url}/__sim/requests`)).json()) as { body: unknown }[];
    expect(log.at(-1)?.body).toMatchObject({
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'image',
              source: {
                type: 'base64',
                media_type: 'image/jpeg',
                data: `${big.slice(0, 32)}…[400,000 chars]`,
              },
            },
            { type: 'text', text: 'Look' },
          ],
        },
      ],
    });
  });
});

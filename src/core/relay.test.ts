import { describe, expect, it } from 'vitest';
import { type RelayItem, readRelayEvent, writeRelayEvent } from './relay.ts';
import { createSseParser } from './sse/parser.ts';

/** What a page reads of the text a server wrote. */
function read(text: string): Array<RelayItem | null> {
  const read: Array<RelayItem | null> = [];
  const parser = createSseParser((item) => {
    if (item.type === 'event') read.push(readRelayEvent(item));
  });
  parser.feed(text);
  parser.end();
  return read;
}

describe('the relay format', () => {
  it.each<RelayItem>([
    { kind: 'piece', id: 1, t: 0, text: 'data: {"a":1}\n\n' },
    { kind: 'piece', id: 7, t: 12.5, text: 'event: x\r\ndata: é\u2028 \n\n: hopbase-keepalive\n\n' },
    { kind: 'piece', id: 2, t: 3, text: '' },
    { kind: 'end', id: 9, outcome: 'complete' },
    { kind: 'end', id: 10, outcome: 'cut', message: "the gateway's answer broke off" },
  ])('reads back what it writes: %j', (item) => expect(read(writeRelayEvent(item))).toEqual([item]));

  it.each([
    ['no id', { event: 'message', id: '', data: '{"t":1,"text":"x"}' }],
    ['id 0', { event: 'message', id: '0', data: '{"t":1,"text":"x"}' }],
    ['an id past exact numbers', { event: 'message', id: '99999999999999999', data: '{"t":1,"text":"x"}' }],
    ['an id with a sign', { event: 'message', id: '+3', data: '{"t":1,"text":"x"}' }],
    ['text not a string', { event: 'message', id: '1', data: '{"t":1,"text":5}' }],
    ['no time', { event: 'message', id: '1', data: '{"text":"x"}' }],
    ['not JSON', { event: 'message', id: '1', data: 'data: x' }],
    ['an array', { event: 'message', id: '1', data: '[]' }],
    ['an unknown outcome', { event: 'end', id: '2', data: '{"outcome":"maybe"}' }],
    ['an unknown event', { event: 'progress', id: '2', data: '{"t":1,"text":"x"}' }],
  ])('reads %s as no relay event', (_, event) => expect(readRelayEvent(event)).toBeNull());
});

import { afterEach, describe, expect, it } from 'vitest';
import type { FeedEvent } from './changeFeed.ts';
import { type TabChannel, tabFeed } from './tabSync.ts';

let count = 0;
const open: { close(): void }[] = [];

afterEach(() => {
  for (const feed of open.splice(0)) feed.close();
});

/** Two tabs' feeds on one channel name (Node 20 has BroadcastChannel), and what each hears. */
function twoTabs() {
  const name = `hopbase-feed-${++count}`;
  const tab = () => {
    const heard: FeedEvent[] = [];
    const feed = tabFeed(new BroadcastChannel(name) as unknown as TabChannel);
    feed.listen((event) => heard.push(event));
    open.push(feed);
    return { feed, heard, channel: new BroadcastChannel(name) };
  };
  const a = tab();
  const b = tab();
  open.push(a.channel, b.channel);
  return { a, b };
}

const change = { conversations: [{ id: 'conv_1', revision: 3 }], settings: false };

describe('the change feed between tabs', () => {
  it('tells the other tab what one stored, never the one that stored it', async () => {
    const { a, b } = twoTabs();
    expect(a.feed.announce(change)).toBe(true);
    await expect.poll(() => b.heard).toEqual([{ kind: 'stored', change }]);
    expect(a.heard).toEqual([]);
  });

  it('ignores anything else said on the channel', async () => {
    const { a, b } = twoTabs();
    for (const junk of [null, 'stored', { type: 'stored' }, { type: 'other', from: 'x', conversations: [] }])
      a.channel.postMessage(junk);
    a.feed.announce({ conversations: [{ id: 'c', revision: 1 }, { id: 2 } as never], settings: true });
    await expect
      .poll(() => b.heard)
      .toEqual([{ kind: 'stored', change: { conversations: [{ id: 'c', revision: 1 }], settings: true } }]);
  });

  it('posts nothing when nothing was stored', () => {
    const posted: unknown[] = [];
    const feed = tabFeed({
      postMessage: (message) => posted.push(message),
      addEventListener() {},
      removeEventListener() {},
      close() {},
    });
    expect(feed.announce({ conversations: [], settings: false })).toBe(true);
    expect(posted).toEqual([]);
    feed.close();
  });

  it('says it could not announce on a closed channel', () => {
    const channel = new BroadcastChannel(`hopbase-feed-${++count}`);
    const feed = tabFeed(channel as unknown as TabChannel);
    channel.close();
    expect(feed.announce(change)).toBe(false);
    feed.close();
  });

  it('says changes may have been missed when the page comes back from the back/forward cache', () => {
    const { a } = twoTabs();
    const show = (persisted: boolean) =>
      globalThis.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
    show(false);
    expect(a.heard).toEqual([]);
    show(true);
    expect(a.heard).toEqual([{ kind: 'missed' }]);
  });
});

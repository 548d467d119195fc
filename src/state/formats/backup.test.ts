import 'fake-indexeddb/auto';
import { clear, createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { version as appVersion } from '../../../package.json';
import { emptyTurn } from '../../core/index.ts';
import { recordingKeptApart } from '../domain/recordings.ts';
import type {
  AssistantMessage,
  Attempt,
  Conversation,
  Preset,
  SavedTool,
  TraceItem,
} from '../domain/types.ts';
import { readEverything } from '../storage/backupRecords.ts';
import type { ChangeFeed } from '../storage/changeFeed.ts';
import { loadState } from '../storage/load.ts';
import { startPersisting } from '../storage/persistence.ts';
import { type TabChannel, tabFeed } from '../storage/tabSync.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import { defaultSettings } from '../stores/settingsStore.ts';
import { type BackupDocument, type BackupRefusal, backUp, readBackup, restoreBackup } from './backup.ts';
import { exportConversationJson } from './conversationExport.ts';
import { packedLines } from './records.ts';

let dbCount = 0;
let db: UseStore;
let channelName: string;
let stops: (() => Promise<void>)[] = [];

beforeEach(() => {
  db = createStore(`hopbase-backup-${++dbCount}`, 'state');
  channelName = `hopbase-backup-${dbCount}`;
  sessionStorage.clear();
});

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

// ---- Conversations as the app makes them ------------------------------------------------------------

function items(text: string): TraceItem[] {
  return [
    { t: 3, kind: 'comment', event: '', data: 'hopbase-keepalive' },
    { t: 5, kind: 'event', event: 'message', data: JSON.stringify({ delta: text }) },
  ];
}

function attempt(id: string, text: string, startedAt: number, recorded = true): Attempt {
  const raw = recorded ? `: hopbase-keepalive\n\ndata: ${JSON.stringify({ delta: text })}\n\n` : '';
  return {
    id,
    startedAt,
    request: {
      url: '/v1/chat/completions',
      path: '/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: { model: 'sim-echo', messages: [] },
    },
    sentHeaders: { 'content-type': 'application/json' },
    turn: {
      ...emptyTurn,
      status: 'complete',
      text,
      parts: [{ kind: 'text', key: 't0', text }],
      usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 },
      finishReason: 'stop',
      model: 'sim-echo',
    },
    httpError: null,
    trace: {
      headersAt: 1,
      firstOutputAt: 5,
      endedAt: 9,
      bytes: raw.length,
      outputEvents: 1,
      items: recorded ? items(text) : [],
      raw,
      truncated: false,
    },
  };
}

function answer(id: string, createdAt: number, attempts: Attempt[]): AssistantMessage {
  return {
    id,
    role: 'assistant',
    protocol: 'chat',
    model: 'sim-echo',
    source: { kind: 'gateway' },
    createdAt,
    attempts,
  };
}

/** A conversation of `n`: a question, an answer with two attempts (both recorded), a tool result. */
function conversation(n: number): Conversation {
  const at = n * 100;
  return {
    id: `conv_${n}`,
    title: `Conversation ${n}`,
    createdAt: at,
    updatedAt: at + 9,
    choices: { protocol: 'chat', model: 'sim-echo', reasoning: 'off' },
    parameters: { temperature: n / 10, stop: ['END'], seed: n },
    messages: [
      { id: `msg_${n}_q`, role: 'user', text: `Question ${n}`, createdAt: at + 1 },
      answer(`msg_${n}_a`, at + 2, [
        attempt(`att_${n}_1`, `First try ${n}`, at + 2),
        attempt(`att_${n}_2`, `Answer ${n}`, at + 3),
      ]),
      {
        id: `msg_${n}_t`,
        role: 'tool',
        toolCallId: 'call_1',
        name: 'get_weather',
        content: '{"ok":1}',
        createdAt: at + 4,
      },
    ],
  };
}

interface Tab {
  stores: AppStores;
  stop(): Promise<void>;
}

/** A tab of the app on `db`: loaded, persisting, and (unless `linked` is false) on the tab feed. */
async function openTab(linked = true): Promise<Tab> {
  const stores = createAppStores();
  const loaded = await loadState(db, stores);
  const feed = linked ? tabFeed(new BroadcastChannel(channelName) as unknown as TabChannel) : null;
  const stop = startPersisting(db, stores, 10, 20, { loaded, feed });
  stops.push(stop);
  return {
    stores,
    async stop() {
      await stop();
      stops = stops.filter((s) => s !== stop);
    },
  };
}

/** Writes `conversations` and settings as a tab does (revisions, recordings in records of their own). */
async function seed(conversations: Conversation[]) {
  const tab = await openTab(false);
  tab.stores.conversations.setState((state) => ({
    conversations: { ...state.conversations, ...Object.fromEntries(conversations.map((c) => [c.id, c])) },
    order: [...conversations.map((c) => c.id), ...state.order],
  }));
  tab.stores.settings.getState().update({
    systemPrompt: 'Answer in haiku',
    temperature: 0.4,
    model: 'sim-long',
    apiKey: 'sk-secret-key-123',
    rememberKey: true,
    baseUrl: 'https://user:pass@gateway.example.com/v1',
    presets: [savedPreset],
    toolLibrary: [savedTool],
  });
  await tab.stop();
}

const savedTool: SavedTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const savedPreset: Preset = {
  id: 'pre_1',
  name: 'Careful Claude',
  createdAt: 5,
  choices: { protocol: 'messages', model: 'claude-x', reasoning: 'high' },
  systemPrompt: 'Think twice.',
  parameters: { temperature: 1, maxOutputTokens: 20000, stop: ['END'] },
};

/** Every record of the database, by key. */
async function snapshot(): Promise<Record<string, unknown>> {
  return Object.fromEntries((await entries(db)).map(([k, v]) => [String(k), v]));
}

/** The answer of one of these conversations (its second message). */
function answerOf(c: Conversation | undefined): AssistantMessage {
  const message = c?.messages[1];
  if (message?.role !== 'assistant') throw new Error('no answer');
  return message;
}

const byId = (list: Conversation[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));

/** Asks for every recording a tab keeps apart, as the inspector asks for one. */
/** Asks for every recording and request body a load leaves in the database (as the inspector would). */
function wantRecordings(stores: AppStores): void {
  for (const conversation of Object.values(stores.conversations.getState().conversations))
    for (const message of conversation.messages)
      if (message.role === 'assistant')
        for (const attempt of message.attempts) {
          if (recordingKeptApart(attempt)) stores.recordings.getState().want(attempt.id);
          if (attempt.request.bodyMissing === 'missing') stores.bodies.getState().want(attempt.id);
        }
}

/** A tab feed on the tests' channel that keeps what it posted. */
function collectingFeed(): ChangeFeed & { posted: unknown[] } {
  const channel = new BroadcastChannel(channelName);
  const posted: unknown[] = [];
  const feed = tabFeed({
    postMessage(message) {
      posted.push(message);
      channel.postMessage(message);
    },
    addEventListener: (type, listener) => channel.addEventListener(type, listener as EventListener),
    removeEventListener: (type, listener) => channel.removeEventListener(type, listener as EventListener),
    close: () => channel.close(),
  });
  return Object.assign(feed, { posted });
}

const texts = (c: Conversation | undefined) =>
  c?.messages.map((m) =>
    m.role === 'user' ? m.text : m.role === 'tool' ? 'tool' : m.attempts.map((a) => a.turn.text).join('|'),
  ) ?? [];

// ---- Tests -----------------------------------------------------------------------------------------

describe('backup', () => {
  it('holds every conversation with its recordings and the settings, never a secret', async () => {
    await seed([conversation(1), conversation(2)]);
    const file = await backUp(db, 'sk-secret-key-123', Date.UTC(2025, 9, 2, 20, 26));
    expect(file.name).toBe('hopbase-chat-backup-2025-10-02.json');
    expect(file).toMatchObject({
      conversations: 2,
      recordings: 4,
      attachments: 0,
      missingAttachments: 0,
      leftOut: 0,
    });
    expect(file.text).not.toContain('sk-secret-key-123');
    expect(file.text).not.toContain('user:pass');
    const document = JSON.parse(file.text) as BackupDocument;
    expect(document).toMatchObject({
      format: 'hopbase-chat-backup',
      version: 1,
      createdAt: '2025-10-02T20:26:00.000Z',
      app: { name: 'hopbase-chat', version: appVersion },
      attachments: [],
    });
    expect(document.settings).not.toHaveProperty('apiKey');
    expect(document.settings).not.toHaveProperty('rememberKey');
    expect(document.settings).toMatchObject({
      systemPrompt: 'Answer in haiku',
      temperature: 0.4,
      model: 'sim-long',
      baseUrl: 'https://gateway.example.com/v1',
      stallSilentSeconds: defaultSettings.stallSilentSeconds,
    });
    // Recordings are joined into their attempts; revisions are this browser's, not the file's.
    const answer1 = document.conversations.find((c) => c.id === 'conv_1')?.messages[1] as AssistantMessage;
    expect(answer1.attempts.map((a) => a.trace.items)).toEqual([items('First try 1'), items('Answer 1')]);
    expect(answer1.attempts[1]?.trace.raw).toContain('Answer 1');
    expect(document.conversations[0]).not.toHaveProperty('revision');
  });

  it('redacts credentials in recorded requests and scrubs the key from every string', async () => {
    const leaky = conversation(1);
    const a = (leaky.messages[1] as AssistantMessage).attempts[1]!;
    a.request = {
      ...a.request,
      url: 'https://me:pw@gw.example/v1/chat/completions',
      headers: { authorization: 'Bearer x' },
    };
    a.trace = { ...a.trace, raw: `${a.trace.raw}: echo sk-secret-key-123\n\n` };
    await seed([leaky]);
    const file = await backUp(db, 'sk-secret-key-123', 0);
    const stored = (JSON.parse(file.text) as BackupDocument).conversations[0]!
      .messages[1] as AssistantMessage;
    expect(stored.attempts[1]?.request.url).toBe('https://gw.example/v1/chat/completions');
    expect(stored.attempts[1]?.request.headers).toEqual({ authorization: '[redacted]' });
    expect(stored.attempts[1]?.trace.raw).toContain(': echo [redacted]');
  });

  it('leaves out what cannot be read, and says so', async () => {
    await seed([conversation(1)]);
    await set('conversation:conv_bad', { id: 'conv_bad', title: 'Bad', createdAt: 1, messages: null }, db);
    const file = await backUp(db, '', 0);
    expect(file).toMatchObject({ conversations: 1, leftOut: 1 });
  });
});

describe('restore', () => {
  it('round trip: back up, clear, restore, and everything is as it was', async () => {
    await seed([conversation(1), conversation(2), conversation(3)]);
    const before = await readEverything(db);
    const file = await backUp(db, 'sk-secret-key-123', 0);

    await clear(db);
    expect(await snapshot()).toEqual({});
    const result = await restoreBackup(db, file.text, null);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.counts).toEqual({ conversations: 3, recordings: 6, attachments: 0, problems: 0 });
    expect(result.outcome).toMatchObject({
      added: ['conv_3', 'conv_2', 'conv_1'],
      settings: 'applied',
      // Another gateway than this browser's: offered (without its user and password), not written.
      gateway: 'https://gateway.example.com/v1',
    });
    const after = await readEverything(db);
    expect(byId(after.conversations)).toEqual(byId(before.conversations));
    // Every setting but the key, whether to keep it, and the gateway.
    const { apiKey: _key, rememberKey: _remember, ...settings } = before.settings;
    expect({ ...defaultSettings, ...after.settings }).toStrictEqual({
      ...defaultSettings,
      ...settings,
      baseUrl: defaultSettings.baseUrl,
    });
    expect(after.settings).not.toHaveProperty('apiKey');
    expect(after.settings).not.toHaveProperty('rememberKey');

    // And the app loads it: every answer, and every recording when asked for.
    const { stores } = await openTab(false);
    const loaded = () => stores.conversations.getState();
    expect(loaded().order).toEqual(['conv_3', 'conv_2', 'conv_1']);
    wantRecordings(stores);
    await expect.poll(() => byId(Object.values(loaded().conversations))).toEqual(byId(before.conversations));
    expect(stores.settings.getState().settings.systemPrompt).toBe('Answer in haiku');
  });

  it('brings its presets (by id) and saved tools (by name) back beside those made since', async () => {
    await seed([conversation(1)]);
    const file = await backUp(db, '', 0);
    const made: Preset = { ...savedPreset, id: 'pre_2', name: 'Made since' };
    const changed: Preset = { ...savedPreset, systemPrompt: 'Changed since' };
    const toolMade: SavedTool = { ...savedTool, name: 'get_time' };
    const toolChanged: SavedTool = { ...savedTool, description: 'Changed since' };
    const tab = await openTab(false);
    tab.stores.settings.getState().update({ presets: [changed, made], toolLibrary: [toolChanged, toolMade] });
    await tab.stop();

    const result = await restoreBackup(db, file.text, null);
    expect(result.ok && result.outcome.settings).toBe('applied');
    const { stores } = await openTab(false);
    // The file's copy of the one it holds, the one made since kept.
    expect(stores.settings.getState().settings.presets).toEqual([savedPreset, made]);
    expect(stores.settings.getState().settings.toolLibrary).toEqual([savedTool, toolMade]);
    const again = await restoreBackup(db, file.text, null);
    expect(again.ok && again.outcome.settings).toBe('unchanged');
  });

  it('restoring twice changes nothing the second time', async () => {
    await seed([conversation(1), conversation(2)]);
    const file = await backUp(db, '', 0);
    await clear(db);
    await restoreBackup(db, file.text, null);
    const once = await snapshot();

    const feed = collectingFeed();
    const again = await restoreBackup(db, file.text, feed);
    feed.close();
    expect(await snapshot()).toEqual(once);
    expect(feed.posted).toEqual([]);
    expect(again.ok && again.outcome).toMatchObject({
      added: [],
      revived: [],
      joined: [],
      unchanged: ['conv_2', 'conv_1'],
      recordingsWritten: 0,
      recordingsKept: 4,
      settings: 'unchanged',
    });
    expect(again.ok && again.counts).toEqual({
      conversations: 2,
      recordings: 4,
      attachments: 0,
      problems: 0,
    });
  });

  it('into the browser it came from, nothing is written', async () => {
    await seed([conversation(1), conversation(2)]);
    const file = await backUp(db, 'sk-secret-key-123', 0);
    const before = await snapshot();
    const result = await restoreBackup(db, file.text, null);
    expect(result.ok && result.outcome.unchanged).toHaveLength(2);
    expect(await snapshot()).toEqual(before);
  });

  it('never writes another gateway address: it is offered, and the rest of the settings applied', async () => {
    await seed([conversation(1)]);
    const document = JSON.parse((await backUp(db, '', 0)).text) as BackupDocument;
    const elsewhere = {
      ...document,
      settings: { ...document.settings, baseUrl: 'https://evil.example/v1', systemPrompt: 'Planted' },
    };
    const result = await restoreBackup(db, JSON.stringify(elsewhere), null);
    expect(result.ok && result.outcome).toMatchObject({
      settings: 'applied',
      gateway: 'https://evil.example/v1',
    });
    const after = await readEverything(db);
    expect(after.settings).toMatchObject({
      baseUrl: 'https://user:pass@gateway.example.com/v1',
      systemPrompt: 'Planted',
      apiKey: 'sk-secret-key-123',
    });
    // The same address (a trailing slash aside) is no other gateway: nothing offered.
    const same = {
      ...document,
      settings: { ...document.settings, baseUrl: 'https://gateway.example.com/v1/' },
    };
    const again = await restoreBackup(db, JSON.stringify(same), null);
    expect(again.ok && again.outcome.gateway).toBeNull();
  });

  it('joins conversations edited here, brings back deleted ones, adds new ones, leaves the rest', async () => {
    await seed([conversation(1), conversation(2), conversation(3)]);
    // The backup holds a question asked in conversation 1 in the other browser after they parted.
    const document = JSON.parse((await backUp(db, '', 0)).text) as BackupDocument;
    document.conversations
      .find((c) => c.id === 'conv_1')
      ?.messages.push({ id: 'msg_other', role: 'user', text: 'Asked in the other browser', createdAt: 150 });
    const file = { text: JSON.stringify(document) };

    // Since the backup: 1 renamed and continued, 2 deleted, 3 lost its recordings, 4 made here only.
    const tab = await openTab(false);
    const state = () => tab.stores.conversations.getState();
    state().renameConversation('conv_1', 'Renamed here');
    state().addUserMessage('conv_1', 'Asked after the backup');
    state().deleteConversation('conv_2');
    const id4 = state().newConversation('Only here');
    state().addUserMessage(id4, 'Not in the backup');
    await tab.stop();
    await del('trace:att_3_1', db);
    await del('trace:att_3_2', db);
    const tombstone = (await get('deleted:conv_2', db)) as { revision: number };
    const revision1 = ((await get('conversation:conv_1', db)) as { revision: number }).revision;

    const result = await restoreBackup(db, file.text, null);
    expect(result.ok && result.outcome).toMatchObject({
      added: [],
      revived: ['conv_2'],
      joined: ['conv_3', 'conv_1'],
      unchanged: [],
      recordingsWritten: 4,
      recordingsKept: 2,
    });

    const { stores } = await openTab(false);
    wantRecordings(stores);
    await expect
      .poll(() => answerOf(stores.conversations.getState().conversations.conv_3).attempts[1]?.trace.items)
      .toEqual(items('Answer 3'));
    const all = stores.conversations.getState().conversations;
    expect(Object.keys(all).sort()).toEqual(['conv_1', 'conv_2', 'conv_3', id4].sort());
    // Joined: the message asked here stays, nothing is doubled, the name given here wins.
    expect(all.conv_1?.title).toBe('Renamed here');
    expect(texts(all.conv_1)).toEqual([
      'Question 1',
      'First try 1|Answer 1',
      'tool',
      'Asked in the other browser',
      'Asked after the backup',
    ]);
    expect(texts(all.conv_2)).toEqual(['Question 2', 'First try 2|Answer 2', 'tool']);
    expect(texts(all[id4])).toEqual(['Not in the backup']);
    // Revisions move past what was stored, so every tab takes the restored records; the tombstone is gone.
    expect(await get('deleted:conv_2', db)).toBeUndefined();
    expect(((await get('conversation:conv_2', db)) as { revision: number }).revision).toBe(
      tombstone.revision + 1,
    );
    expect(((await get('conversation:conv_1', db)) as { revision: number }).revision).toBe(revision1 + 1);

    // And once more: nothing.
    const once = await snapshot();
    const again = await restoreBackup(db, file.text, null);
    expect(again.ok && again.outcome.unchanged).toHaveLength(3);
    expect(await snapshot()).toEqual(once);
  });

  it('keeps the further copy of an attempt: a finished answer replaces one the database has half', async () => {
    await seed([conversation(1)]);
    const file = await backUp(db, '', 0);
    const stored = (await get('conversation:conv_1', db)) as Conversation & { revision: number };
    const half = structuredClone(stored);
    const last = (half.messages[1] as AssistantMessage).attempts[1]!;
    last.turn = { ...last.turn, status: 'streaming', text: 'Ans' };
    last.trace = { ...last.trace, bytes: 4, endedAt: null };
    await set('conversation:conv_1', half, db);
    await set('trace:att_1_2', { items: [], raw: 'data' }, db);

    const result = await restoreBackup(db, file.text, null);
    expect(result.ok && result.outcome).toMatchObject({
      joined: ['conv_1'],
      recordingsWritten: 1,
      recordingsKept: 1,
    });
    const after = await readEverything(db);
    expect(after.conversations).toEqual(readBackupConversations(file.text));
  });

  it('holds a recording written in parts joined; restored over one, writes it whole and leaves no part', async () => {
    await seed([conversation(1)]);
    const file = await backUp(db, '', 0);
    const { items: recorded, raw } = answerOf(readBackupConversations(file.text)[0]).attempts[1]!.trace;
    // The same recording as a tab writes it while it streams: in parts.
    await set('trace:att_1_2', { parts: 2 }, db);
    await set(
      'trace-part:att_1_2:0',
      { packed: packedLines(recorded.slice(0, 1)).lines, raw: raw.slice(0, 5) },
      db,
    );
    await set(
      'trace-part:att_1_2:1',
      { packed: packedLines(recorded.slice(1)).lines, raw: raw.slice(5) },
      db,
    );
    expect((await backUp(db, '', 0)).text).toBe(file.text);

    // The database's copy of that answer half: the backup's, further along, is written whole.
    const stored = (await get('conversation:conv_1', db)) as Conversation & { revision: number };
    const half = structuredClone(stored);
    const last = (half.messages[1] as AssistantMessage).attempts[1]!;
    last.turn = { ...last.turn, status: 'streaming', text: 'Ans' };
    last.trace = { ...last.trace, bytes: 4, endedAt: null };
    await set('conversation:conv_1', half, db);
    const result = await restoreBackup(db, file.text, null);
    expect(result.ok && result.outcome).toMatchObject({ joined: ['conv_1'], recordingsWritten: 1 });
    expect(Object.keys(await snapshot()).filter((key) => key.startsWith('trace-part:'))).toEqual([]);
    expect(await get('trace:att_1_2', db)).toEqual({ packed: packedLines(recorded).lines, raw });
    expect((await readEverything(db)).conversations).toEqual(readBackupConversations(file.text));
  });

  it('tells the open tabs, which show what was restored, settings too, and keep their own key', async () => {
    await seed([conversation(1), conversation(2)]);
    const file = await backUp(db, '', 0);
    const a = await openTab();
    const b = await openTab();
    a.stores.conversations.getState().deleteConversation('conv_1');
    await expect.poll(() => b.stores.conversations.getState().order).toEqual(['conv_2']);
    a.stores.settings
      .getState()
      .update({ systemPrompt: 'Changed since', apiKey: 'sk-tab-a-only', rememberKey: false });
    await expect.poll(() => b.stores.settings.getState().settings.systemPrompt).toBe('Changed since');

    const feed = collectingFeed();
    const result = await restoreBackup(db, file.text, feed);
    feed.close();
    expect(result.ok && result.outcome.revived).toEqual(['conv_1']);
    expect(result.ok && result.outcome.announced).toBe(true);
    for (const tab of [a, b]) {
      await expect
        .poll(() => Object.keys(tab.stores.conversations.getState().conversations).sort())
        .toEqual(['conv_1', 'conv_2']);
      await expect.poll(() => tab.stores.settings.getState().settings.systemPrompt).toBe('Answer in haiku');
      // The recordings, when the inspector asks.
      wantRecordings(tab.stores);
      await expect
        .poll(
          () => answerOf(tab.stores.conversations.getState().conversations.conv_1).attempts[1]?.trace.items,
        )
        .toEqual(items('Answer 1'));
    }
    expect(a.stores.settings.getState().settings.apiKey).toBe('sk-tab-a-only');
    expect(a.stores.settings.getState().settings.rememberKey).toBe(false);
    // Nothing the tabs then write undoes it.
    await a.stop();
    await b.stop();
    const reopened = createAppStores();
    await loadState(db, reopened);
    expect(Object.keys(reopened.conversations.getState().conversations).sort()).toEqual(['conv_1', 'conv_2']);
  });

  it('sets aside an unreadable record where a restored one goes, never losing it', async () => {
    await seed([conversation(1)]);
    const file = await backUp(db, '', 0);
    const broken = { id: 'conv_1', title: 'Broken', createdAt: 1, messages: 'nope' };
    await set('conversation:conv_1', broken, db);
    const result = await restoreBackup(db, file.text, null, 5);
    expect(result.ok && result.outcome.setAside).toEqual([
      {
        key: 'set-aside:conversation:conv_1:5',
        what: 'conversation',
        reason: 'messages: expected a list',
        value: broken,
      },
    ]);
    expect(await get('set-aside:conversation:conv_1:5', db)).toEqual(broken);
    expect((await readEverything(db)).conversations.map((c) => c.title)).toEqual(['Conversation 1']);
  });

  it('settles an answer that was still streaming when backed up as interrupted', async () => {
    const live = conversation(1);
    const last = (live.messages[1] as AssistantMessage).attempts[1]!;
    last.turn = { ...last.turn, status: 'streaming' };
    const text = JSON.stringify({ format: 'hopbase-chat-backup', version: 1, conversations: [live] });
    await restoreBackup(db, text, null);
    const [restored] = (await readEverything(db)).conversations;
    const turn = answerOf(restored).attempts[1]?.turn;
    expect(turn?.status).toBe('interrupted');
    expect(turn?.text).toBe('Answer 1');
  });
});

describe('request bodies', () => {
  /** Conversation 1 with a body of its own for each attempt, as the session sends them. */
  function sent(): Conversation {
    const c = conversation(1);
    answerOf(c).attempts.forEach((a, i) => {
      a.request = {
        ...a.request,
        body: { model: 'sim-echo', messages: [{ role: 'user', content: 'Question 1' }], seed: i },
      };
    });
    return c;
  }
  const requests = (c: Conversation | undefined) => answerOf(c).attempts.map((a) => a.request);

  it('are in the backup file, inline, and restoring gives each its record again', async () => {
    const original = sent();
    await seed([original]);
    const file = await backUp(db, '', 0);
    const inFile = (JSON.parse(file.text) as BackupDocument).conversations[0];
    expect(requests(inFile)).toEqual(requests(original));

    await clear(db);
    await restoreBackup(db, file.text, null);
    const record = await get<Conversation>('conversation:conv_1', db);
    expect(requests(record).map((r) => 'body' in r)).toEqual([false, false]);
    expect(await get('request:att_1_1', db)).toEqual({ body: requests(original)[0]!.body });
    expect(await get('request:att_1_2', db)).toEqual({ body: requests(original)[1]!.body });
  });

  it('restored onto a record from before, which holds them, write nothing unless it changes', async () => {
    const original = sent();
    await seed([original]);
    const file = await backUp(db, '', 0);
    // The record as an earlier version stored it: every body inline, none apart.
    const stored = (await get('conversation:conv_1', db)) as Conversation;
    answerOf(stored).attempts.forEach((a, i) => {
      a.request = requests(original)[i]!;
    });
    await set('conversation:conv_1', stored, db);
    for (const a of answerOf(stored).attempts) await del(`request:${a.id}`, db);
    const before = await snapshot();
    const again = await restoreBackup(db, file.text, null);
    expect(again.ok && again.outcome.unchanged).toEqual(['conv_1']);
    expect(await snapshot()).toEqual(before);

    // A backup that adds a message: the record is written, and its bodies move to records of their own.
    const document = JSON.parse(file.text) as BackupDocument;
    document.conversations[0]!.messages.push({ id: 'msg_new', role: 'user', text: 'Later', createdAt: 200 });
    await restoreBackup(db, JSON.stringify(document), null);
    const record = await get<Conversation>('conversation:conv_1', db);
    expect(requests(record).map((r) => 'body' in r)).toEqual([false, false]);
    expect(await get('request:att_1_1', db)).toEqual({ body: requests(original)[0]!.body });
    expect(await get('request:att_1_2', db)).toEqual({ body: requests(original)[1]!.body });
  });

  it('gone from this browser are marked so in the file, and restoring writes no empty one', async () => {
    await seed([sent()]);
    await del('request:att_1_1', db);
    const file = await backUp(db, '', 0);
    const inFile = (JSON.parse(file.text) as BackupDocument).conversations[0];
    expect(requests(inFile)[0]).toMatchObject({ body: {}, bodyMissing: 'missing' });

    await clear(db);
    await restoreBackup(db, file.text, null);
    expect(await get('request:att_1_1', db)).toBeUndefined();
    expect(await get('request:att_1_2', db)).toEqual({ body: requests(sent())[1]!.body });
  });
});

function readBackupConversations(text: string): Conversation[] {
  const read = readBackup(text);
  return read.ok ? read.conversations : [];
}

describe('reading a backup', () => {
  const refused: [string, string, BackupRefusal][] = [
    ['not JSON', 'PK\u0003\u0004 a zip', { code: 'not_json' }],
    ['JSON of another kind', '{"hello":"world"}', { code: 'not_backup' }],
    ['a list', '[1,2]', { code: 'not_backup' }],
    ['a conversation export', exportConversationJson(conversation(1), '', 0), { code: 'conversation_file' }],
    ['an inspector trace', '{"format":"hopbase-chat-trace","version":1}', { code: 'trace_file' }],
    [
      'a newer version',
      '{"format":"hopbase-chat-backup","version":2,"app":{"name":"hopbase-chat","version":"0.9.0"},"conversations":[]}',
      { code: 'newer_version', version: 2, app: '0.9.0', reads: 1 },
    ],
    ['no version', '{"format":"hopbase-chat-backup","conversations":[]}', { code: 'no_version' }],
    [
      'no conversations',
      '{"format":"hopbase-chat-backup","version":1,"conversations":{}}',
      { code: 'no_conversations' },
    ],
  ];

  it.each(refused)('refuses %s, and writes nothing', async (_name, text, refusal) => {
    await seed([conversation(1)]);
    const before = await snapshot();
    const feed = collectingFeed();
    expect(await restoreBackup(db, text, feed)).toEqual({ ok: false, refusal });
    feed.close();
    expect(await snapshot()).toEqual(before);
    expect(feed.posted).toEqual([]);
  });

  it('reports the entries it cannot read and restores the rest', async () => {
    const badRecording = conversation(2);
    const withBad = structuredClone(badRecording) as unknown as {
      messages: { attempts?: { trace: { items: unknown } }[] }[];
    };
    withBad.messages[1]!.attempts![0]!.trace.items = [{ t: 'soon', kind: 'event' }];
    const text = JSON.stringify({
      format: 'hopbase-chat-backup',
      version: 1,
      createdAt: '2025-10-02T20:26:00.000Z',
      app: { name: 'hopbase-chat', version: '0.1.0' },
      conversations: [
        conversation(1),
        { id: 'conv_x', title: 'Damaged', createdAt: 1, messages: null },
        withBad,
        'junk',
      ],
      attachments: [{ id: 'file_1', name: 'photo.png' }],
      settings: {
        systemPrompt: 'From the file',
        temperature: 'hot',
        apiKey: 'sk-from-a-file',
        rememberKey: true,
      },
    });
    await set('settings', { apiKey: 'sk-kept-here', rememberKey: true, model: 'sim-echo' }, db);
    const result = await restoreBackup(db, text, null);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.problems).toEqual([
      { entry: { kind: 'conversation', number: 2, title: 'Damaged' }, reason: 'messages: expected a list' },
      {
        entry: { kind: 'recording', number: 3, title: 'Conversation 2', attemptId: 'att_2_1' },
        reason: 'items[0]: expected a recorded event or comment',
      },
      { entry: { kind: 'conversation', number: 4, title: '' }, reason: 'expected an object' },
      { entry: { kind: 'attachment', number: 1, name: 'photo.png' }, reason: 'type: expected a string' },
      { entry: { kind: 'setting', key: 'temperature' }, reason: 'of the wrong type' },
    ]);
    expect(result.counts).toEqual({ conversations: 2, recordings: 3, attachments: 0, problems: 5 });
    const after = await readEverything(db);
    expect(after.conversations.map((c) => c.id).sort()).toEqual(['conv_1', 'conv_2']);
    const attempts = answerOf(after.conversations.find((c) => c.id === 'conv_2')).attempts;
    // The damaged recording is left out; its answer and the other recording are restored.
    expect(attempts.map((a) => a.turn.text)).toEqual(['First try 2', 'Answer 2']);
    expect(attempts.map((a) => a.trace.items.length)).toEqual([0, 2]);
    // Settings applied, never the key nor whether to remember it.
    expect(await get('settings', db)).toEqual({
      apiKey: 'sk-kept-here',
      rememberKey: true,
      model: 'sim-echo',
      systemPrompt: 'From the file',
    });
  });

  it('joins a conversation that appears twice in one file', () => {
    const one = conversation(1);
    const other = structuredClone(one);
    other.messages.push({ id: 'msg_extra', role: 'user', text: 'Later', createdAt: 999 });
    const read = readBackup(
      JSON.stringify({ format: 'hopbase-chat-backup', version: 1, conversations: [one, other] }),
    );
    expect(read.ok && read.conversations.map(texts)).toEqual([
      ['Question 1', 'First try 1|Answer 1', 'tool', 'Later'],
    ]);
  });
});

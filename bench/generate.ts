/**
 * Synthetic but realistic SSE streams for the benchmark: N deltas of multi-byte text plus two parallel tool calls
 * whose argument fragments are interleaved with the text, `: hopbase-keepalive` comments, and each protocol's
 * real heavy events (Responses `.done` / `response.completed` repeating the whole output on one line, Anthropic
 * whitespace-padded payloads and pings).
 */
import type { Protocol } from '../src/core/turn.ts';

/** Seeded PRNG (mulberry32): the same seed gives the same stream and the same chunking for every contender. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'héllo',
  ' 世界',
  ' 🚀',
  ' naïve',
  ' café',
  ' Grüße',
  ' —',
  ' привет',
  ' the',
  ' answer',
  ' is',
  '\n',
  ' ∑x²',
  ' 日本語',
  ' "quoted"',
  ' tab\t',
];

interface ExpectedTool {
  id: string;
  name: string;
  args: unknown;
}

export interface GeneratedStream {
  protocol: Protocol;
  deltas: number;
  bytes: Uint8Array;
  text: string;
  tools: ExpectedTool[];
}

type Kind = { kind: 'text'; text: string } | { kind: 'tool'; tool: number; fragment: string; first: boolean };

/** Every 10 deltas: 8 text pieces, then one fragment of tool 0 and one of tool 1 (interleaved). */
function plan(n: number, rng: () => number): { deltas: Kind[]; text: string; tools: ExpectedTool[] } {
  const toolSlots = [0, 0];
  for (let i = 0; i < n; i++) {
    const slot = i % 10;
    if (slot === 8) toolSlots[0]!++;
    else if (slot === 9) toolSlots[1]!++;
  }
  const tools: ExpectedTool[] = [];
  const fragments: string[][] = [];
  for (let t = 0; t < 2; t++) {
    const count = toolSlots[t]!;
    let note = '';
    while (note.length < count * 6) note += WORDS[Math.floor(rng() * WORDS.length)];
    const args = { city: t === 0 ? 'Zürich' : '東京', units: 'c', note, n: count };
    const json = JSON.stringify(args);
    const cps = [...json];
    const pieces: string[] = [];
    for (let k = 0; k < count; k++) {
      pieces.push(
        cps.slice(Math.floor((k * cps.length) / count), Math.floor(((k + 1) * cps.length) / count)).join(''),
      );
    }
    tools.push({ id: `call_bench_${t}`, name: t === 0 ? 'get_weather' : 'search_web', args });
    fragments.push(pieces);
  }
  const deltas: Kind[] = [];
  const used = [0, 0];
  let text = '';
  for (let i = 0; i < n; i++) {
    const slot = i % 10;
    if (slot >= 8) {
      const t = slot - 8;
      const k = used[t]!++;
      deltas.push({ kind: 'tool', tool: t, fragment: fragments[t]![k]!, first: k === 0 });
    } else {
      const piece = WORDS[Math.floor(rng() * WORDS.length)]!;
      text += piece;
      deltas.push({ kind: 'text', text: piece });
    }
  }
  return { deltas, text, tools };
}

const KEEPALIVE_EVERY = 64;
const keepalive = ': hopbase-keepalive\n\n';

function obfuscation(rng: () => number): string {
  return Math.floor(rng() * 36 ** 8).toString(36);
}

function chat(n: number, rng: () => number): GeneratedStream {
  const { deltas, text, tools } = plan(n, rng);
  const head =
    '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1730000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_bench","choices":[';
  const out: string[] = [];
  const chunk = (choice: string, tail = ',"usage":null') =>
    out.push(`data: ${head}${choice}]${tail},"obfuscation":"${obfuscation(rng)}"}\n\n`);
  chunk(
    '{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}',
  );
  deltas.forEach((d, i) => {
    if (i % KEEPALIVE_EVERY === 0) out.push(keepalive);
    let delta: string;
    if (d.kind === 'text') delta = `{"content":${JSON.stringify(d.text)}}`;
    else {
      const tool = tools[d.tool]!;
      const call = d.first
        ? `{"index":${d.tool},"id":"${tool.id}","type":"function","function":{"name":"${tool.name}","arguments":${JSON.stringify(d.fragment)}}}`
        : `{"index":${d.tool},"function":{"arguments":${JSON.stringify(d.fragment)}}}`;
      delta = `{"tool_calls":[${call}]}`;
    }
    chunk(`{"index":0,"delta":${delta},"logprobs":null,"finish_reason":null}`);
  });
  chunk('{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}');
  out.push(
    `data: ${head}],"usage":{"prompt_tokens":120,"completion_tokens":${n},"total_tokens":${120 + n},"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}}\n\n`,
  );
  out.push('data: [DONE]\n\n');
  return { protocol: 'chat', deltas: n, bytes: new TextEncoder().encode(out.join('')), text, tools };
}

function responses(n: number, rng: () => number): GeneratedStream {
  const { deltas, text, tools } = plan(n, rng);
  const out: string[] = [];
  let seq = 0;
  const emit = (type: string, body: Record<string, unknown>) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...body })}\n\n`);
  const base = {
    id: 'resp_bench',
    object: 'response',
    created_at: 1730000000,
    model: 'gpt-5-2025-08-07',
    instructions: null,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'medium', summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: tools.map((t) => ({
      type: 'function',
      name: t.name,
      parameters: { type: 'object' },
      strict: false,
    })),
    top_p: 1,
    truncation: 'disabled',
    error: null,
    incomplete_details: null,
    metadata: {},
  };
  emit('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  emit('response.output_item.added', {
    output_index: 0,
    item: { id: 'msg_bench', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
  });
  emit('response.content_part.added', {
    item_id: 'msg_bench',
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
  });
  tools.forEach((t, k) => {
    emit('response.output_item.added', {
      output_index: 1 + k,
      item: {
        id: `fc_bench_${k}`,
        type: 'function_call',
        status: 'in_progress',
        arguments: '',
        call_id: t.id,
        name: t.name,
      },
    });
  });
  deltas.forEach((d, i) => {
    if (i % KEEPALIVE_EVERY === 0) out.push(keepalive);
    if (d.kind === 'text') {
      emit('response.output_text.delta', {
        item_id: 'msg_bench',
        output_index: 0,
        content_index: 0,
        delta: d.text,
        logprobs: [],
        obfuscation: obfuscation(rng),
      });
    } else {
      emit('response.function_call_arguments.delta', {
        item_id: `fc_bench_${d.tool}`,
        output_index: 1 + d.tool,
        delta: d.fragment,
        obfuscation: obfuscation(rng),
      });
    }
  });
  // The heavy tail: every one of these repeats the whole output on a single line.
  const part = { type: 'output_text', annotations: [], logprobs: [], text };
  const message = {
    id: 'msg_bench',
    type: 'message',
    status: 'completed',
    content: [part],
    role: 'assistant',
  };
  emit('response.output_text.done', {
    item_id: 'msg_bench',
    output_index: 0,
    content_index: 0,
    text,
    logprobs: [],
  });
  emit('response.content_part.done', { item_id: 'msg_bench', output_index: 0, content_index: 0, part });
  emit('response.output_item.done', { output_index: 0, item: message });
  const calls = tools.map((t, k) => ({
    id: `fc_bench_${k}`,
    type: 'function_call',
    status: 'completed',
    arguments: JSON.stringify(t.args),
    call_id: t.id,
    name: t.name,
  }));
  calls.forEach((c, k) => {
    emit('response.function_call_arguments.done', {
      item_id: c.id,
      output_index: 1 + k,
      arguments: c.arguments,
    });
    emit('response.output_item.done', { output_index: 1 + k, item: c });
  });
  emit('response.completed', {
    response: {
      ...base,
      status: 'completed',
      output: [message, ...calls],
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: n,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 120 + n,
      },
    },
  });
  return { protocol: 'responses', deltas: n, bytes: new TextEncoder().encode(out.join('')), text, tools };
}

function messages(n: number, rng: () => number): GeneratedStream {
  const { deltas, text, tools } = plan(n, rng);
  const out: string[] = [];
  let events = 0;
  // Real Anthropic payloads carry runs of spaces before the closing brace.
  const emit = (type: string, json: string) => {
    if (++events % 32 === 0) out.push('event: ping\ndata: {"type": "ping"}\n\n');
    out.push(`event: ${type}\ndata: ${json.slice(0, -1)}${' '.repeat(Math.floor(rng() * 16))}}\n\n`);
  };
  emit(
    'message_start',
    '{"type":"message_start","message":{"model":"claude-sonnet-4-5-20250929","id":"msg_bench","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard"}}}',
  );
  // Blocks are sequential in Anthropic's protocol: the text block first, then each tool_use block.
  emit(
    'content_block_start',
    '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  );
  let i = 0;
  for (const d of deltas) {
    if (d.kind !== 'text') continue;
    if (i++ % KEEPALIVE_EVERY === 0) out.push(keepalive);
    emit(
      'content_block_delta',
      `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(d.text)}}}`,
    );
  }
  emit('content_block_stop', '{"type":"content_block_stop","index":0}');
  tools.forEach((t, k) => {
    const index = 1 + k;
    emit(
      'content_block_start',
      `{"type":"content_block_start","index":${index},"content_block":{"type":"tool_use","id":"${t.id}","name":"${t.name}","input":{}}}`,
    );
    emit(
      'content_block_delta',
      `{"type":"content_block_delta","index":${index},"delta":{"type":"input_json_delta","partial_json":""}}`,
    );
    for (const d of deltas) {
      if (d.kind !== 'tool' || d.tool !== k) continue;
      if (i++ % KEEPALIVE_EVERY === 0) out.push(keepalive);
      emit(
        'content_block_delta',
        `{"type":"content_block_delta","index":${index},"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(d.fragment)}}}`,
      );
    }
    emit('content_block_stop', `{"type":"content_block_stop","index":${index}}`);
  });
  emit(
    'message_delta',
    `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":${n}}}`,
  );
  emit('message_stop', '{"type":"message_stop"}');
  return { protocol: 'messages', deltas: n, bytes: new TextEncoder().encode(out.join('')), text, tools };
}

export function generateStream(protocol: Protocol, n: number, seed: number): GeneratedStream {
  const rng = mulberry32(seed);
  if (protocol === 'chat') return chat(n, rng);
  if (protocol === 'responses') return responses(n, rng);
  return messages(n, rng);
}

/**
 * Cuts bytes after every blank line: one chunk per event or comment, as a server that flushes each event
 * delivers them (and as a benchmark that enqueues events one by one does).
 */
export function eventChunks(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (let i = 1; i < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 10) {
      chunks.push(bytes.slice(from, i + 1));
      from = i + 1;
    }
  }
  if (from < bytes.length) chunks.push(bytes.slice(from));
  return chunks;
}

/** Cuts bytes into random chunks of 1–`max` bytes (seeded). */
export function randomChunks(bytes: Uint8Array, seed: number, max = 4096): Uint8Array[] {
  const rng = mulberry32(seed);
  const chunks: Uint8Array[] = [];
  for (let pos = 0; pos < bytes.length; ) {
    const size = 1 + Math.floor(rng() * max);
    chunks.push(bytes.slice(pos, pos + size));
    pos += size;
  }
  return chunks;
}

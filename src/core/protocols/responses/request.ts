import { type TurnRequest, withAnsweredToolCalls } from '../../conversation.ts';

export function buildResponsesBody(request: TurnRequest): Record<string, unknown> {
  const input: Record<string, unknown>[] = [];
  for (const m of withAnsweredToolCalls(request.messages)) {
    if (m.role === 'user') input.push({ role: 'user', content: m.text });
    else if (m.role === 'tool')
      input.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
    else {
      if (m.text) input.push({ role: 'assistant', content: m.text });
      for (const call of m.toolCalls ?? []) {
        input.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments || '{}',
        });
      }
    }
  }
  return {
    model: request.model,
    stream: true,
    // Stateless: the whole history is sent every time, so a retry is always the same request.
    store: false,
    ...(request.system && { instructions: request.system }),
    input,
    ...(request.tools?.length && {
      tools: request.tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
    }),
    ...(request.maxOutputTokens !== undefined && { max_output_tokens: request.maxOutputTokens }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
  };
}

/**
 * The UI benchmark's reference: `streamdown` with its code plugin (Shiki) rendering the same stream from
 * the same server, updated at most once per animation frame as our app is. Started by the benchmark with
 * `window.startStream(model)`; it sets `window.benchDone` when the stream has ended.
 */
import { code } from '@streamdown/code';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Streamdown } from 'streamdown';
import 'streamdown/styles.css';
import './reference.css';

declare global {
  interface Window {
    startStream(model: string): void;
    benchDone?: boolean;
  }
}

const plugins = { code };

function App() {
  const [state, setState] = useState({ text: '', streaming: false });
  useEffect(() => {
    window.startStream = (model: string) => {
      void run(model, setState);
    };
  }, []);
  return (
    <main className="answer" data-testid="turn-text">
      <Streamdown plugins={plugins} isAnimating={state.streaming} mode="streaming">
        {state.text}
      </Streamdown>
    </main>
  );
}

async function run(
  model: string,
  setState: (s: { text: string; streaming: boolean }) => void,
): Promise<void> {
  const response = await fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'bench' }] }),
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let buffer = '';
  let frame = 0;
  const flush = () => {
    frame = 0;
    setState({ text, streaming: true });
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const content = (JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] })
        .choices?.[0]?.delta?.content;
      if (content) text += content;
    }
    if (frame === 0) frame = requestAnimationFrame(flush);
  }
  if (frame !== 0) cancelAnimationFrame(frame);
  setState({ text, streaming: false });
  window.benchDone = true;
}

createRoot(document.getElementById('root')!).render(<App />);

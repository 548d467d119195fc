import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ToolCallCard } from './ToolCallCard.tsx';

const call = (args: string) => ({ id: 'call_abc123', name: 'get_weather', arguments: args });
const argsBox = () => screen.getByRole('region', { name: 'Tool call get_weather' }).querySelector('pre');

describe('ToolCallCard', () => {
  it('shows the name, the id and pretty-printed JSON arguments', () => {
    render(<ToolCallCard call={call('{"city":"Paris","days":[1,2]}')} streaming={false} />);
    const card = screen.getByRole('region', { name: 'Tool call get_weather' });
    expect(card).toHaveTextContent('get_weather');
    expect(card).toHaveTextContent('call_abc123');
    expect(argsBox()?.textContent).toBe('{\n  "city": "Paris",\n  "days": [\n    1,\n    2\n  ]\n}');
    expect(screen.queryByText(/not valid JSON/)).toBeNull();
  });

  it('shows partial arguments raw with a receiving marker while streaming', () => {
    const { rerender } = render(<ToolCallCard call={call('{"city":"Pa')} streaming />);
    expect(argsBox()?.textContent).toBe('{"city":"Pa receiving…');
    expect(screen.queryByText(/not valid JSON/)).toBeNull();

    // Pretty as soon as the text parses, even before the stream ends.
    rerender(<ToolCallCard call={call('{"city":"Paris"}')} streaming />);
    expect(argsBox()?.textContent).toBe('{\n  "city": "Paris"\n}');
  });

  it('warns when the finished arguments are not valid JSON', () => {
    render(<ToolCallCard call={call('{"city":"Pa')} streaming={false} />);
    expect(argsBox()?.textContent).toBe('{"city":"Pa');
    expect(screen.getByText('Arguments are not valid JSON (the answer may have been cut off)')).toBeVisible();
    expect(screen.queryByText(/receiving/)).toBeNull();
  });

  it('reads empty finished arguments as {}', () => {
    render(<ToolCallCard call={call('')} streaming={false} />);
    expect(argsBox()?.textContent).toBe('{}');
  });

  it('sends a typed result, and only once something is typed', async () => {
    const user = userEvent.setup();
    const onSubmitResult = vi.fn();
    render(<ToolCallCard call={call('{}')} streaming={false} onSubmitResult={onSubmitResult} />);
    const input = screen.getByRole('textbox', { name: 'Result for get_weather' });
    const send = screen.getByRole('button', { name: 'Send result' });
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('placeholder', '{"temperature": 21}');
    expect(send).toBeDisabled();

    await user.type(input, '   ');
    expect(send).toBeDisabled();
    await user.clear(input);
    await user.type(input, '{{"temperature": 21}');
    expect(send).toBeEnabled();
    await user.click(send);
    expect(onSubmitResult).toHaveBeenCalledExactlyOnceWith('{"temperature": 21}');
  });

  it('offers no form while streaming or without a handler', () => {
    const { rerender } = render(<ToolCallCard call={call('{}')} streaming onSubmitResult={() => {}} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    rerender(<ToolCallCard call={call('{}')} streaming={false} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a sent result instead of the form', () => {
    render(
      <ToolCallCard
        call={call('{}')}
        streaming={false}
        result='{"temperature": 21}'
        onSubmitResult={() => {}}
      />,
    );
    expect(screen.getByText('Result sent')).toBeInTheDocument();
    expect(screen.getByText('{"temperature": 21}')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

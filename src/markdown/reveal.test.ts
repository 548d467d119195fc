import { describe, expect, it } from 'vitest';
import { advanceReveal, revealedLength, startReveal } from './reveal.ts';

describe('reveal', () => {
  it('shows a saved text whole at once', () => {
    expect(revealedLength(startReveal(false, 1_000), 50_000)).toBe(50_000);
  });

  it('shows a live text up to the first share', () => {
    expect(revealedLength(startReveal(true, 1_000), 50_000)).toBe(1_000);
    expect(revealedLength(startReveal(true, 1_000), 400)).toBe(400);
  });

  it('doubles the share each frame, up to the cap', () => {
    let reveal = startReveal(true, 1_000);
    const lengths: number[] = [];
    for (let frame = 0; frame < 5; frame++) {
      const length = revealedLength(reveal, 50_000);
      lengths.push(length);
      reveal = advanceReveal(reveal, length, 4_000);
    }
    expect(lengths).toEqual([1_000, 3_000, 7_000, 11_000, 15_000]);
  });

  it('never shows less than before as the text grows', () => {
    const reveal = advanceReveal(startReveal(true, 1_000), 1_000, 4_000);
    expect(revealedLength(reveal, 2_500)).toBe(2_500);
    expect(revealedLength(reveal, 9_000)).toBe(3_000);
  });
});

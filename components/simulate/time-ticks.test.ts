import { describe, expect, it } from 'vitest';
import { tickLabel, tickStep, ticksBetween } from './time-ticks';

describe('time ticks', () => {
  it('picks a nice step at least the gap apart', () => {
    expect(tickStep(0.1, 80)).toBe(1000); // 800 ms wanted
    expect(tickStep(1, 80)).toBe(100);
    expect(tickStep(0.001, 80)).toBe(120_000); // 80 s wanted: 2 min, a clock's step
    expect(tickStep(0.08, 80)).toBe(1000);
    expect(tickStep(0.01, 80)).toBe(10_000);
    expect(tickStep(10, 80)).toBe(10);
  });

  it('lists ticks between two times, from zero', () => {
    expect(ticksBetween(0, 3500, 1000)).toEqual([0, 1000, 2000, 3000]);
    expect(ticksBetween(1500, 3500, 1000)).toEqual([2000, 3000]);
  });

  it('labels neighbouring ticks apart', () => {
    expect(tickLabel(500, 100)).toBe('500 ms');
    expect([1000, 1100].map((t) => tickLabel(t, 100))).toEqual(['1.0 s', '1.1 s']);
    expect([1000, 1010].map((t) => tickLabel(t, 10))).toEqual(['1.00 s', '1.01 s']);
    expect(tickLabel(3000, 1000)).toBe('3 s');
    expect(tickLabel(120_000, 60_000)).toBe('2:00 min');
    expect(tickLabel(7_200_000, 600_000)).toBe('2 h 00 min');
  });
});
